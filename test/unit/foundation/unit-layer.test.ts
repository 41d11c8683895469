import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { projectRoot } from '../../../scripts/source-aliases.mjs';

// A unit file needs no platform server, so one file runs in seconds (docs/testing.md, "Running
// one test, one file, one layer"): the unit project starts none, and a test that talks to a
// platform server lives in test/integration/, which has the shared one.

const unitDir = path.join(projectRoot, 'test/unit');

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    return entry.isDirectory() ? filesUnder(full) : /\.tsx?$/.test(entry.name) ? [full] : [];
  });
}

describe('the unit layer', () => {
  it('is given no platform server by a global setup', () => {
    expect(inject('platformUrl')).toBeUndefined();
    expect(inject('authKey')).toBeUndefined();
  });

  it('has no file that reaches for a platform server (the shared one, or one of its own)', () => {
    const reaching = filesUnder(unitDir)
      .filter((file) => /\binject\(|reference-app\/server\/testing/.test(readFileSync(file, 'utf8')))
      .map((file) => path.relative(projectRoot, file));
    // This file asks inject() only to see that nothing is provided.
    expect(reaching).toEqual(['test/unit/foundation/unit-layer.test.ts']);
  });
});
