import type { TestProject } from 'vitest/node';
import { startPlatformServer } from '../../reference-app/server/testing';

// One real platform server (auth + API + PGlite in a throw-away directory, or DATABASE_URL)
// for the whole integration run; tests read its address with globalServer()
// (test/integration/helpers.ts), which injects 'platformUrl' and 'authKey'.
export default async function setup(project: TestProject) {
  const server = await startPlatformServer();
  project.provide('platformUrl', server.url);
  project.provide('authKey', server.authKey);
  return () => server.close();
}

declare module 'vitest' {
  export interface ProvidedContext {
    platformUrl: string;
    authKey: string;
  }
}
