// Which registries a publisher's image may come from, and what a publisher reads of an engine's
// failure (issue 35, finding 7): the engine pulled from any host:port the reference named (a
// loopback port of the host included) and its own error text, which tells an open port from a
// closed one, came back to the publisher. On the real engine: hosting/container-engine.test.ts.
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../reference-app/server/config';
import { ConfigError } from '../../../reference-app/server/config/env';
import { ANONYMOUS_PULL, meaningOfEngineError, pullAuthConfig } from '../../../reference-app/server/hosting/engine';
import {
  credentialRegistryProblem,
  imageRegistryProblem,
  registryHostOf,
  registryOf,
} from '../../../reference-app/server/registry/allowedRegistries';
import { foreignNamespaceProblem } from '../../../reference-app/server/registry/scopes';

describe('image registries', () => {
  it('names the registry of a reference by the engine’s rule', () => {
    expect(registryOf('nginx:1')).toBe('docker.io');
    expect(registryOf('me/model:2')).toBe('docker.io');
    expect(registryOf('index.docker.io/me/model:2')).toBe('docker.io');
    expect(registryOf('ghcr.io/me/model@sha256:abc')).toBe('ghcr.io');
    expect(registryOf('127.0.0.1:2375/x:1')).toBe('127.0.0.1:2375');
    expect(registryOf('localhost/x')).toBe('localhost');
    expect(registryOf('LOCALHOST:5000/x')).toBe('localhost:5000');
  });

  it('allows the listed registries and the platform’s own, and says which when refusing', () => {
    const { imageRegistries } = loadConfig({ CONTAINER_RUNNER: 'docker', PLATFORM_REGISTRY_HOST: 'registry.limelight.example' }).runtimes;
    expect(imageRegistries).toEqual(['docker.io', 'ghcr.io', 'quay.io', 'registry.limelight.example']);
    expect(imageRegistryProblem('me/model:1', imageRegistries!)).toBeUndefined();
    expect(imageRegistryProblem('registry.limelight.example/me/model:1', imageRegistries!)).toBeUndefined();
    expect(imageRegistryProblem('10.0.0.5:5000/me/model:1', imageRegistries!)).toBe(
      'the registry 10.0.0.5:5000 is not one this platform deploys from; push the image to docker.io, ghcr.io, quay.io, registry.limelight.example',
    );
  });

  it('a credential goes only with an image on the registry it was saved for (issue 47, finding 9)', () => {
    expect(registryHostOf('https://index.docker.io/v1/')).toBe('docker.io');
    expect(registryHostOf('GHCR.io')).toBe('ghcr.io');
    expect(credentialRegistryProblem('me/model:1', 'docker.io')).toBeUndefined();
    expect(credentialRegistryProblem('index.docker.io/me/model:1', 'registry-1.docker.io')).toBeUndefined();
    expect(credentialRegistryProblem('127.0.0.1:5000/me/model:1', '127.0.0.1:5000')).toBeUndefined();
    expect(credentialRegistryProblem('ghcr.io/me/model:1', 'docker.io')).toBe(
      'the registry credential is for docker.io and the image is on ghcr.io; choose a credential for ghcr.io, or none for a public image',
    );
    expect(credentialRegistryProblem('127.0.0.1:5001/me/model:1', '127.0.0.1:5000')).toMatch(
      /is for 127\.0\.0\.1:5000 and the image is on 127\.0\.0\.1:5001/,
    );
  });

  it("an image of the platform's registry is the caller's only in their own namespace (issue 47, finding 1)", () => {
    const host = 'registry.limelight.example';
    expect(foreignNamespaceProblem(`${host}/ada-0123456789ab/ocr:1`, host, 'ada-0123456789ab')).toBeUndefined();
    expect(foreignNamespaceProblem(`${host}/ada-0123456789ab/ocr@sha256:${'a'.repeat(64)}`, host, 'ada-0123456789ab')).toBeUndefined();
    expect(foreignNamespaceProblem('ghcr.io/bob/ocr:1', host, 'ada-0123456789ab')).toBeUndefined();
    expect(foreignNamespaceProblem(`${host}/bob-ba9876543210/ocr:1`, host, 'ada-0123456789ab')).toBe(
      `${host}/bob-ba9876543210 is another account's namespace of the platform's registry; your images are under ${host}/ada-0123456789ab/<name>:<tag>`,
    );
    // The engine's rule reads the host without regard to case.
    expect(foreignNamespaceProblem(`REGISTRY.limelight.example/bob-ba9876543210/ocr:1`, host, 'ada-0123456789ab')).toMatch(
      /another account's namespace/,
    );
    expect(foreignNamespaceProblem(`${host}/ocr:1`, host, 'ada-0123456789ab')).toBe(
      `${host}/ocr:1 names no namespace of the platform's registry; your images are under ${host}/ada-0123456789ab/<name>:<tag>`,
    );
    expect(foreignNamespaceProblem('127.0.0.1:5000/bob/x:1', '127.0.0.1:5000', 'ada')).toMatch(/^127\.0\.0\.1:5000\/bob is another/);
  });

  it("a pull without a credential says so to the engine, so the engine host's logins are never used", () => {
    // base64 of {}: Podman reads an empty set of credentials and pulls anonymously (host-login.test.ts).
    expect(Buffer.from(ANONYMOUS_PULL.base64, 'base64').toString()).toBe('{}');
    expect(pullAuthConfig(undefined)).toBe(ANONYMOUS_PULL);
    // An empty username is no credential to Podman either: it would fall back to the host's logins.
    expect(pullAuthConfig({ username: '', password: 'x', serveraddress: 'ghcr.io' })).toBe(ANONYMOUS_PULL);
    const auth = { username: 'me', password: 'x', serveraddress: 'ghcr.io' };
    expect(pullAuthConfig(auth)).toBe(auth);
  });

  it('CONTAINER_REGISTRIES replaces the default list; a bad entry stops the server with one line', () => {
    expect(loadConfig({ CONTAINER_REGISTRIES: 'registry.example.com:5000, ghcr.io' }).runtimes.imageRegistries).toEqual([
      'registry.example.com:5000',
      'ghcr.io',
    ]);
    expect(() => loadConfig({ CONTAINER_REGISTRIES: 'https://ghcr.io' })).toThrow(ConfigError);
    expect(() => loadConfig({ CONTAINER_REGISTRIES: 'https://ghcr.io' })).toThrow(
      'CONTAINER_REGISTRIES must be comma-separated registry hosts such as ghcr.io or registry.example.com:5000, got "https://ghcr.io"',
    );
  });
});

describe('engine errors in the publisher’s words', () => {
  it.each([
    [
      'initializing source docker://127.0.0.1:5000/x:1: reading manifest 1: unauthorized: authentication required',
      'the registry refused the credential',
    ],
    ['reading manifest 1 in 127.0.0.1:5000/x: manifest unknown: manifest unknown', 'the registry has no such image or tag'],
    [
      'pinging container registry 127.0.0.1:1: Get "http://127.0.0.1:1/v2/": dial tcp 127.0.0.1:1: connect: connection refused',
      'the registry did not answer',
    ],
    ['pinging container registry 127.0.0.1:6379: Get "http://127.0.0.1:6379/v2/": EOF', 'the registry did not answer'],
  ])('a pull: %s', (raw, meaning) => {
    expect(meaningOfEngineError('pull', raw)).toMatch(new RegExp(`^${meaning}`));
  });

  it('a refused pull without a credential asks for one, not for a check of one nobody saved', () => {
    const raw = 'reading manifest 1 in 127.0.0.1:5000/x: unauthorized: authentication required';
    expect(meaningOfEngineError('pull', raw, { anonymous: true })).toBe(
      'the registry refused a pull without a credential (save a registry credential for it and choose it for the service)',
    );
  });

  it('anything else is the engine’s refusal, without its words', () => {
    const raw = 'crun: open /var/lib/containers/storage/overlay/abc: permission denied: OCI permission denied';
    expect(meaningOfEngineError('start', raw)).toBe('the container engine refused it (its own words are in the runner’s log)');
  });
});
