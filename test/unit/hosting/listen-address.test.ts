// The platform's listen address with the container runner on (issue 35, finding 7): a server
// listening on every interface answers publishers' containers at their bridge's gateway, so with
// CONTAINER_RUNNER set and no HOST it listens on loopback (docs/security.md, "Container hosting").
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../reference-app/server/config';

describe('listen address', () => {
  it('is loopback when the runner is on and HOST is unset', () => {
    expect(loadConfig({ CONTAINER_RUNNER: 'docker' }).host).toBe('127.0.0.1');
  });

  it('is what HOST says, and every interface without a runner', () => {
    expect(loadConfig({ CONTAINER_RUNNER: 'docker', HOST: '0.0.0.0' }).host).toBe('0.0.0.0');
    expect(loadConfig({}).host).toBeUndefined();
  });
});
