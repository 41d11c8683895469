import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

// npm test's Python checks (scripts/check-python.mjs, docs/testing.md): Ruff, pyright and the
// import-cycle check each fail the step on a finding. Checked on a small package made here, once
// with one finding of each kind and once clean (so the step can pass at all).

const ROOT = path.resolve(import.meta.dirname, '../../..');
const folders: string[] = [];
afterAll(() => folders.forEach((folder) => rmSync(folder, { recursive: true, force: true })));

function project(files: Record<string, string>): string {
  const folder = mkdtempSync(path.join(tmpdir(), 'lime-python-checks-'));
  folders.push(folder);
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(folder, name)), { recursive: true });
    writeFileSync(path.join(folder, name), text);
  }
  return folder;
}

function check(folder: string) {
  const result = spawnSync(process.execPath, [path.join(ROOT, 'scripts/check-python.mjs'), '--root', folder], { encoding: 'utf8' });
  return { status: result.status, output: result.stdout + result.stderr };
}

describe('scripts/check-python.mjs', () => {
  it('fails on a lint finding, a file Ruff would format, a type error and an import cycle', { timeout: 60_000 }, () => {
    const folder = project({
      'pkg/__init__.py': '',
      'pkg/a.py': 'import os\n\nfrom . import b\n\n\ndef twice(n: int) -> int:\n    return b.half(n) * 4\n',
      'pkg/b.py': 'def half(n: int) -> int:\n    from .a import twice\n\n    return twice(n)  //  2\n',
      'pkg/c.py': 'count: int = "three"\n',
    });
    const { status, output } = check(folder);
    expect(status).toBe(1);
    expect(output).toMatch(/pkg\/a\.py:1:8: F401 `os` imported but unused/);
    expect(output).toMatch(/pkg\/b\.py: not formatted as Ruff formats it/);
    expect(output).toMatch(/import cycle of 2 modules: pkg\.a, pkg\.b/);
    expect(output).toMatch(/c\.py:1:14 - error: Type "Literal\['three'\]" is not assignable to declared type "int"/);
  });

  it('passes a clean package', { timeout: 60_000 }, () => {
    const folder = project({
      'pkg/__init__.py': '',
      'pkg/a.py': 'from . import b\n\n\ndef twice(n: int) -> int:\n    return b.half(n) * 4\n',
      'pkg/b.py': 'def half(n: int) -> int:\n    return n // 2\n',
    });
    const { status, output } = check(folder);
    expect(output).toMatch(/Ruff: no findings, formatted/);
    expect(output).toMatch(/0 errors/);
    expect(status).toBe(0);
  });
});
