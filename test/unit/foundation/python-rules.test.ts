import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import * as rules from '@limelight/rules';
import { describe, expect, it } from 'vitest';
import { PYTHON_RULES, pythonRules } from '../../../scripts/python-rules.mjs';

// The platform's rules have one home, @limelight/rules (docs/architecture.md, "Where the rules
// live"): the Python package reads a generated copy (sdk/python/limelight/_rules.py, checked in),
// and no other source defines a rule again.

const ROOT = path.resolve(import.meta.dirname, '../../..');
/** The sources of the widgets, the site, the server, the client and the Python package. */
const SOURCE_DIRS = ['src', 'reference-app/src', 'reference-app/server', 'packages/client/src', 'sdk/python/limelight', 'scripts'];

function sourceFiles(dir: string): string[] {
  return readdirSync(path.join(ROOT, dir)).flatMap((name) => {
    const rel = path.posix.join(dir, name);
    if (name === 'node_modules' || name === '__pycache__' || name === 'generated') return [];
    if (statSync(path.join(ROOT, rel)).isDirectory()) return sourceFiles(rel);
    return /\.(tsx?|mjs|py)$/.test(name) && rel !== 'sdk/python/limelight/_rules.py' ? [rel] : [];
  });
}

describe('sdk/python/limelight/_rules.py', () => {
  it('is what scripts/python-rules.mjs generates from @limelight/rules (run it after changing a rule)', () => {
    expect(readFileSync(PYTHON_RULES, 'utf8')).toBe(pythonRules(rules));
  });

  it('follows a changed price, limit or status into the Python constants', () => {
    const [first, ...rest] = rules.GPU_PRICES;
    const changed = pythonRules({
      ...rules,
      GPU_PRICES: [{ ...first!, customer_price_per_s_usd: 0.00099 }, ...rest],
      MAX_PREFER_WAIT_S: 45,
      JOB_STATUSES: [...rules.JOB_STATUSES, 'PAUSED'],
    });
    expect(changed).toContain('"customer_price_per_s_usd": 0.00099,');
    expect(changed).not.toContain('"customer_price_per_s_usd": 0.00016,');
    expect(changed).toContain('MAX_PREFER_WAIT_S = 45\n');
    expect(changed).toMatch(/^JobStatus = Literal\[.*"CANCELLED", "PAUSED"\]$/m);
  });

  it('writes keys as the wire spells them and an unlimited plan as math.inf', () => {
    const text = pythonRules(rules);
    expect(text).toContain('"memory_mb": 1024,');
    expect(text).toContain('"enterprise": math.inf,');
    expect(text).toMatch(/^import math$/m);
  });

  it('refuses a value Python cannot hold as a literal', () => {
    expect(() => pythonRules({ ...rules, MAX_PREFER_WAIT_S: Number.NaN })).toThrow(/no Python literal for NaN/);
  });
});

describe('one home for the rules', () => {
  const files = SOURCE_DIRS.flatMap(sourceFiles);

  it('has no second definition of a rule in the sources', () => {
    const names = Object.keys(rules).filter((name) => /^[A-Z][A-Z0-9_]+$/.test(name));
    expect(names).toContain('GPU_PRICES');
    const definition = new RegExp(`(?:\\b(?:const|let|var)\\s+|^\\s*)(${names.join('|')})\\s*(?::[^=\\n]*)?=(?!=)`, 'm');
    const found = files.flatMap((file) => {
      const match = definition.exec(readFileSync(path.join(ROOT, file), 'utf8'));
      return match ? [`${file} defines ${match[1]}`] : [];
    });
    expect(found).toEqual([]);
  });

  it('has no copy of the GPU price table: no source names a GPU offer by id', () => {
    const ids = rules.GPU_PRICES.map((offer) => offer.id);
    const found = files.flatMap((file) => {
      const text = readFileSync(path.join(ROOT, file), 'utf8');
      return ids.filter((id) => text.includes(id)).map((id) => `${file} names ${id}`);
    });
    expect(found).toEqual([]);
  });
});
