import Module from 'node:module';
import { beforeEach, vi, type RunnerTestCase } from 'vitest';
import * as jsonwebtoken from './shims/jsonwebtoken';
import * as clients from './test/lib/clients';

// The suite is written for jest; vitest's `vi` has the same spy, mock and timer calls it uses.
Object.assign(globalThis, { jest: vi });

// Three MFA tests load their helpers with require() (jest's CommonJS), which vitest's aliases do
// not reach: the same shim and the same clients module as the suite's imports answer it.
type Load = (request: string, parent: unknown, isMain: boolean) => unknown;
const nodeModule = Module as unknown as { _load: Load };
const load = nodeModule._load;
nodeModule._load = function (request, parent, isMain) {
  if (request === 'jsonwebtoken') return jsonwebtoken;
  if (request === './lib/clients') return clients;
  return load.call(this, request, parent, isMain);
};

/** The name as the JSON reporter gives it: the describe blocks' titles and the test's, by spaces. */
function fullName(test: RunnerTestCase): string {
  const names = [test.name];
  for (let suite = test.suite; suite && !('filepath' in suite); suite = suite.suite) names.unshift(suite.name);
  return names.join(' ');
}

// The tests that need what this server deliberately does not offer (phone, SSO, anonymous
// sign-in, …) are skipped with their reason: AUTH_JS_SUITE_SKIP, a JSON object of full name to
// reason, set by test/integration/auth/auth-js-suite.test.ts.
const skipped = JSON.parse(process.env.AUTH_JS_SUITE_SKIP ?? '{}') as Record<string, string>;
beforeEach((context) => {
  const reason = skipped[fullName(context.task)];
  if (reason) context.skip(reason);
});
