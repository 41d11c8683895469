import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { builtImports, dependencyProblems } from '../../../scripts/package-imports.mjs';

// The widgets' dependencies are exactly what their built files import (scripts/check-package.mjs,
// issue 36): a fake dist/ shows the scan and both ways the manifest can be wrong.

const dist = mkdtempSync(path.join(tmpdir(), 'lime-imports-'));
afterAll(() => rmSync(dist, { recursive: true, force: true }));

function file(name: string, source: string) {
  mkdirSync(path.dirname(path.join(dist, name)), { recursive: true });
  writeFileSync(path.join(dist, name), source);
}

file(
  'index.js',
  "import { a } from './api/index.js';\nimport { jsx } from 'react/jsx-runtime';\nexport const b = () => jsx('div', { children: a });\n",
);
file('api/index.js', "export { parse } from '@scope/parser/sub';\nexport const a = () => import('three');\nimport 'node:crypto';\n");
file('components/sample.js', "export const sample = `import { createClient } from '@limelight/client';`;\n");
file('styles/a.css', 'a { color: red }');
file('cdn/bundle.js', "import 'bundled-away';\n");

describe('built imports against package.json', () => {
  it('finds static, re-exported and dynamic imports by package, not strings or builtins, and skips the named folders', async () => {
    const imports = await builtImports(dist, ['cdn']);
    expect([...imports.keys()].sort()).toEqual(['@scope/parser', 'react', 'three']);
    expect(imports.get('three')).toMatch(/api\/index\.js$/);
  });

  it('passes a manifest that declares exactly those (peers count)', async () => {
    const pkg = { dependencies: { '@scope/parser': '1', three: '1' }, peerDependencies: { react: '19' } };
    expect(dependencyProblems(pkg, await builtImports(dist, ['cdn']))).toEqual([]);
  });

  it('names a dependency no built file imports, and an import no dependency declares', async () => {
    const pkg = { dependencies: { '@scope/parser': '1', sharp: '1' }, peerDependencies: { react: '19' } };
    const problems = dependencyProblems(pkg, await builtImports(dist, ['cdn']));
    expect(problems).toEqual([
      expect.stringMatching(/api\/index\.js imports three, which is not in dependencies/),
      expect.stringMatching(/dependency sharp is imported by no built file/),
    ]);
  });
});
