import type { TestProject } from 'vitest/node';
import { startPlatformServer } from '../../../reference-app/server/testing';

// The account panels talk to the real platform server (auth, API, PGlite): one for the
// component run, open to the test page's origin (CORS) and confirming sign-ups at once, so each
// test makes its own user. Tests read the address with inject('platformUrl').
export default async function setup(project: TestProject) {
  const server = await startPlatformServer({ env: { CORS_ORIGINS: '*', MAILER_AUTOCONFIRM: 'true' } });
  project.provide('platformUrl', server.url);
  project.provide('authKey', server.authKey);
  return () => server.close();
}
