import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ESLint } from 'eslint';
import ts from 'typescript';
import { afterAll, describe, expect, it } from 'vitest';
import { isDocumented } from '../../../scripts/api-docs.mjs';
import { projectRoot } from '../../../scripts/source-aliases.mjs';

// The public surface's three guards (docs/api-surface.md): every exported name documented (the
// API report fails otherwise), the reference app limited to the package's entries (ESLint), and
// every entry listed with its stability in docs/api-surface.md.

describe('the API report’s documentation rule', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'lime-api-docs-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  function documentedNames(files: Record<string, string>): Record<string, boolean> {
    for (const [name, text] of Object.entries(files)) writeFileSync(path.join(dir, name), text);
    const entry = path.join(dir, 'entry.ts');
    const program = ts.createProgram([entry], { strict: true, noEmit: true });
    const checker = program.getTypeChecker();
    const moduleSymbol = checker.getSymbolAtLocation(program.getSourceFile(entry)!)!;
    return Object.fromEntries(checker.getExportsOfModule(moduleSymbol).map((s) => [s.getName(), isDocumented(checker, s)]));
  }

  it('accepts TSDoc on the declaration, through re-exports, and on a one-name re-export; refuses the rest', () => {
    const result = documentedNames({
      'module.ts': [
        '/** Documented where it is declared. */',
        'export const documented = 1;',
        '// A line comment is no doc comment.',
        'export const lineComment = 2;',
        'export interface Bare { a: number }',
        'export type Foreign = { b: string };',
        'export type AlsoForeign = { c: string };',
      ].join('\n'),
      'middle.ts': "export { documented, lineComment } from './module';\n",
      'entry.ts': [
        "export { documented, lineComment } from './middle';",
        "export type { Bare } from './module';",
        '/** Documented by the entry, as for a type another package declares. */',
        "export type { Foreign } from './module';",
        '/** One comment over two names documents neither. */',
        "export type { AlsoForeign, Bare as BareAgain } from './module';",
      ].join('\n'),
    });
    expect(result).toEqual({
      documented: true,
      lineComment: false,
      Bare: false,
      Foreign: true,
      AlsoForeign: false,
      BareAgain: false,
    });
  });
});

describe('the reference app imports only public entries', () => {
  const eslint = new ESLint({ cwd: projectRoot });
  const restricted = async (source: string, file = 'reference-app/src/pages/probe.ts') => {
    const [result] = await eslint.lintText(`${source}\nexport const probe = value;\n`, { filePath: path.join(projectRoot, file) });
    return result!.messages.filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message);
  };

  it('accepts the entries package.json exports lists, patterns included', async () => {
    for (const specifier of [
      '@limelight/widgets',
      '@limelight/widgets/api',
      '@limelight/widgets/headless/service-runner',
      '@limelight/widgets/theme/contract',
      '@limelight/widgets/web-components/service-search',
    ])
      expect(await restricted(`import { value } from '${specifier}';`), specifier).toEqual([]);
  });

  it('refuses source files and subpaths that are no entry, in the website, the server and the build config', async () => {
    for (const file of ['reference-app/src/pages/probe.ts', 'reference-app/server/probe.ts', 'reference-app/probe.config.ts']) {
      expect(await restricted(`import { value } from '../../src/api/http';`, file), file).toHaveLength(1);
      expect(await restricted(`import { value } from '@limelight/widgets/src/api/http';`, file), file).toHaveLength(1);
      expect(await restricted(`import { value } from '@limelight/widgets/components/ServiceRunner';`, file), file).toHaveLength(1);
      expect(await restricted(`import { value } from '@limelight/widgets/headless/nothing-here';`, file), file).toHaveLength(1);
    }
  });
});

describe('docs/api-surface.md', () => {
  it('lists every entry of package.json exports', () => {
    const doc = readFileSync(path.join(projectRoot, 'docs/api-surface.md'), 'utf8');
    const pkg = JSON.parse(readFileSync(path.join(projectRoot, 'package.json'), 'utf8')) as { exports: Record<string, unknown> };
    const listed = (key: string) => {
      if (key === '.') return doc.includes('`@limelight/widgets`');
      if (key === './package.json') return true;
      const name = key.slice(1).replace(/\*(\.css)?$/, '<');
      return doc.includes(`\`${name}`);
    };
    expect(Object.keys(pkg.exports).filter((key) => !listed(key))).toEqual([]);
  });
});
