// Which registries a publisher's image may come from (issue 35; docs/security.md, "Container
// hosting"). The engine pulls from wherever the image reference names, from the host: without a
// list a reference such as `127.0.0.1:2375/x:1` or `10.0.0.5:5000/x:1` made the host's engine
// connect to a loopback or internal port of the publisher's choosing. Only the platform's own
// registry and the registries of CONTAINER_REGISTRIES are pulled from.

/** CONTAINER_REGISTRIES when unset: the public registries publishers use most. */
export const DEFAULT_CONTAINER_REGISTRIES = ['docker.io', 'ghcr.io', 'quay.io'] as const;

/** Docker Hub's other names, which an engine treats as docker.io. */
const DOCKER_HUB = new Set(['docker.io', 'index.docker.io', 'registry-1.docker.io']);

const normalHost = (host: string) => {
  const lower = host.toLowerCase();
  return DOCKER_HUB.has(lower) ? 'docker.io' : lower;
};

/**
 * The registry host[:port] an image reference names, by the engine's own rule: the first path
 * component is a host when it has a dot or a port, or is `localhost`; otherwise it is Docker Hub
 * (`nginx:1`, `me/model:2`).
 */
export function registryOf(image: string): string {
  const slash = image.indexOf('/');
  if (slash < 0) return 'docker.io';
  const first = image.slice(0, slash);
  return /[.:]/.test(first) || first.toLowerCase() === 'localhost' ? normalHost(first) : 'docker.io';
}

/** The hosts allowed: the configured list and the platform's own registry, normalised. */
export function allowedRegistries(configured: readonly string[], platformRegistryHost?: string): string[] {
  return [...new Set([...configured, ...(platformRegistryHost ? [platformRegistryHost] : [])].map(normalHost))];
}

/** Why the image may not be deployed here, in words for the publisher, or undefined. */
export function imageRegistryProblem(image: string, allowed: readonly string[]): string | undefined {
  const registry = registryOf(image);
  if (allowed.includes(registry)) return undefined;
  return `the registry ${registry} is not one this platform deploys from; push the image to ${allowed.join(', ')}`;
}

/** A credential's registry address as registryOf names hosts (`https://index.docker.io/v1/` → docker.io). */
export function registryHostOf(address: string): string {
  return normalHost(address.replace(/^[a-z][a-z0-9+.-]*:\/\//i, '').replace(/\/.*$/, ''));
}

/**
 * Why a credential saved for `credentialRegistry` may not go with a pull of `image`, or
 * undefined. The engine sends a pull's credential to the image's registry whatever registry it
 * was saved for: the pull cannot succeed, and the password would go to another registry.
 */
export function credentialRegistryProblem(image: string, credentialRegistry: string): string | undefined {
  const registry = registryOf(image);
  const saved = registryHostOf(credentialRegistry);
  if (registry === saved) return undefined;
  return `the registry credential is for ${saved} and the image is on ${registry}; choose a credential for ${registry}, or none for a public image`;
}
