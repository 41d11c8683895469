import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allImports, entryOf, isEntry, problemsOf, serverImports, testFiles } from '../../../scripts/test-imports.mjs';

// npm test's check that tests outside test/unit import the server only through its public entries
// (scripts/test-imports.mjs; docs/testing.md, "Tests and the server's entries"), on a small
// repository made for it: a server with a folder that has an entry, one without, and root files.

let root: string;
const write = (file: string, text: string) => {
  mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
  writeFileSync(path.join(root, file), text);
};
const S = 'reference-app/server';
const problemsIn = (file: string) => problemsOf(root, serverImports(root, file));

beforeAll(() => {
  root = mkdtempSync(path.join(tmpdir(), 'test-imports-'));
  write(
    `${S}/hosting/engine.ts`,
    'export class ContainerEngine {}\nexport const secret = 1;\nexport type RegistryAuth = { user: string };\n',
  );
  write(`${S}/hosting/index.ts`, "export { ContainerEngine, type RegistryAuth } from './engine';\nexport * from './limits';\n");
  write(`${S}/hosting/limits.ts`, 'export function limitsFor() {}\n');
  write(`${S}/jobs/sql/claim.ts`, 'export const claimJobs = 1;\n');
  write(`${S}/config.ts`, "export { ConfigError } from './config/env';\n");
  write(`${S}/config/env.ts`, 'export class ConfigError extends Error {}\n');
  write(`${S}/platform.ts`, 'export const pgliteDir = 1;\n');
  write('test/unit/server/engine.test.ts', "import { secret } from '../../../reference-app/server/hosting/engine';\n");
  write('test/bench/engine.bench.ts', "import { secret } from '../../reference-app/server/hosting/engine';\n");
});

afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('scripts/test-imports.mjs', () => {
  it('checks every test folder but test/unit, test/bench, test/consumers and test/vendor', () => {
    write('test/e2e/support/server.ts', "import { pgliteDir } from '../../../reference-app/server/platform';\n");
    expect(testFiles(root)).toEqual(['test/e2e/support/server.ts']);
    expect(allImports(root).map(({ target }) => target)).toEqual([`${S}/platform.ts`]);
  });

  it('takes root files and a folder’s index.ts as entries; config/ has config.ts', () => {
    expect(isEntry(`${S}/platform.ts`)).toBe(true);
    expect(isEntry(`${S}/hosting/index.ts`)).toBe(true);
    expect(isEntry(`${S}/hosting/engine.ts`)).toBe(false);
    expect(isEntry(`${S}/runtimes/models/index.ts`)).toBe(false);
    expect(entryOf(root, `${S}/hosting/engine.ts`)).toBe(`${S}/hosting/index.ts`);
    expect(entryOf(root, `${S}/config/env.ts`)).toBe(`${S}/config.ts`);
    expect(entryOf(root, `${S}/jobs/sql/claim.ts`)).toBeUndefined();
  });

  it('passes imports of entries, folders imported as such, and insides that say why', () => {
    const file = 'test/integration/ok.test.ts';
    write(
      file,
      [
        "import { pgliteDir } from '../../reference-app/server/platform';",
        "import { ContainerEngine, limitsFor } from '../../reference-app/server/hosting';",
        "import { ConfigError } from '../../reference-app/server/config';",
        "// reaches inside: fault injection of the queue's SQL",
        "import { claimJobs } from '../../reference-app/server/jobs/sql/claim';",
        "import { secret } from '../../reference-app/server/hosting/engine'; // reaches inside: a value no entry offers",
        "import { readFileSync } from 'node:fs';",
        '',
      ].join('\n'),
    );
    expect(problemsIn(file)).toEqual([]);
    rmSync(path.join(root, file));
  });

  it('prints the import to write instead when the entry exports every name', () => {
    const file = 'test/integration/hosting/engine.test.ts';
    write(
      file,
      [
        "import { describe } from 'vitest';",
        'import {',
        '  ContainerEngine,',
        '  type RegistryAuth,',
        "} from '../../../reference-app/server/hosting/engine';",
        "import type { RegistryAuth as Auth } from '../../../reference-app/server/hosting/engine';",
        "import { ConfigError } from '../../../reference-app/server/config/env';",
        '',
      ].join('\n'),
    );
    expect(problemsIn(file)).toEqual([
      `${file}:2: import { ContainerEngine, type RegistryAuth, } from '../../../reference-app/server/hosting/engine';`,
      '  reaches inside hosting/ (hosting/engine.ts is no public entry).',
      "  Import it from the module's entry instead:",
      "    import { ContainerEngine, type RegistryAuth, } from '../../../reference-app/server/hosting';",
      '  or, if the test must reach inside, say why on the line above the import:',
      '    // reaches inside: <why>',
      `${file}:6: import type { RegistryAuth as Auth } from '../../../reference-app/server/hosting/engine';`,
      '  reaches inside hosting/ (hosting/engine.ts is no public entry).',
      "  Import it from the module's entry instead:",
      "    import type { RegistryAuth as Auth } from '../../../reference-app/server/hosting';",
      '  or, if the test must reach inside, say why on the line above the import:',
      '    // reaches inside: <why>',
      `${file}:7: import { ConfigError } from '../../../reference-app/server/config/env';`,
      '  reaches inside config/ (config/env.ts is no public entry).',
      "  Import it from the module's entry instead:",
      "    import { ConfigError } from '../../../reference-app/server/config';",
      '  or, if the test must reach inside, say why on the line above the import:',
      '    // reaches inside: <why>',
      'Tests use the server\'s public entries (docs/testing.md, "Tests and the server\'s entries").',
    ]);
    rmSync(path.join(root, file));
  });

  it('names what the entry lacks, a folder without an entry, dynamic imports and mocks', () => {
    const file = 'test/setup/helpers.ts';
    write(
      file,
      [
        "import { secret, ContainerEngine } from '../../reference-app/server/hosting/engine';",
        '// a comment that gives no reason',
        "import { claimJobs } from '../../reference-app/server/jobs/sql/claim';",
        "const engine = await import('../../reference-app/server/hosting/engine');",
        "vi.mock('../../reference-app/server/jobs/sql/claim');",
        '',
      ].join('\n'),
    );
    const lines = problemsIn(file);
    expect(lines.filter((line) => line.startsWith(file))).toEqual([
      `${file}:1: import { secret, ContainerEngine } from '../../reference-app/server/hosting/engine';`,
      `${file}:3: import { claimJobs } from '../../reference-app/server/jobs/sql/claim';`,
      `${file}:4: const engine = await import('../../reference-app/server/hosting/engine');`,
      `${file}:5: vi.mock('../../reference-app/server/jobs/sql/claim');`,
    ]);
    expect(lines).toContain(
      '  hosting/index.ts does not export secret: export it there if it is part of what the module offers, then write',
    );
    expect(lines).toContain("    import { secret, ContainerEngine } from '../../reference-app/server/hosting';");
    expect(lines).toContain('  jobs/ has no entry: add reference-app/server/jobs/index.ts exporting what tests need,');
    expect(lines).toContain("    const engine = await import('../../reference-app/server/hosting');");
    rmSync(path.join(root, file));
  });

  it('fails a "reaches inside" comment on an import of an entry, and a why too short to say anything', () => {
    const file = 'test/integration/stale.test.ts';
    write(
      file,
      [
        '// reaches inside: the engine, before hosting had an entry',
        "import { ContainerEngine } from '../../reference-app/server/hosting';",
        '// reaches inside: yes',
        "import { claimJobs } from '../../reference-app/server/jobs/sql/claim';",
        '',
      ].join('\n'),
    );
    const lines = problemsIn(file);
    expect(lines[0]).toBe(`${file}:2: hosting/index.ts is a public entry, so the "reaches inside" comment is not needed: delete it.`);
    expect(lines[1]).toBe(`${file}:4: import { claimJobs } from '../../reference-app/server/jobs/sql/claim';`);
    rmSync(path.join(root, file));
  });
});
