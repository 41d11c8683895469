import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatCredits } from '../../../src/run';

// One number format for credits everywhere (issue 39, item 4): the balance, a run's price and
// cost, the ledger, a publisher's earnings and a checkout all go through formatCredits.

const ROOT = path.resolve(import.meta.dirname, '../../..');

function sources(dir: string): string[] {
  return readdirSync(path.join(ROOT, dir)).flatMap((name) => {
    const rel = path.posix.join(dir, name);
    if (statSync(path.join(ROOT, rel)).isDirectory()) return name === 'generated' ? [] : sources(rel);
    return /\.tsx?$/.test(name) ? [rel] : [];
  });
}

describe('formatCredits', () => {
  it('groups thousands and keeps up to the ledger’s 4 decimals, without trailing zeros', () => {
    expect([500, 0.0286, 12_345.5, 0.01, 1_000_000, 0].map((n) => formatCredits(n))).toEqual([
      '500',
      '0.0286',
      '12,345.5',
      '0.01',
      '1,000,000',
      '0',
    ]);
  });

  it('signs ledger entries: a credit with +, a charge with -, nothing with neither', () => {
    expect([500, -0.0286, 0].map((n) => formatCredits(n, { signed: true }))).toEqual(['+500', '-0.0286', '0']);
  });

  it('a balance shows at most 2 decimals; a price keeps 4 (issue 50, item 7)', () => {
    expect([97.8614, 0.0048, 12_345.5, 500, 0.996].map((n) => formatCredits(n, { balance: true }))).toEqual([
      '97.86',
      '0',
      '12,345.5',
      '500',
      '1',
    ]);
    expect(formatCredits(0.0048)).toBe('0.0048');
  });

  it('no view formats credits by itself (toLocaleString, toFixed or its own Intl.NumberFormat)', () => {
    const own = /\.toLocaleString\(|\.toFixed\(|new Intl\.NumberFormat\(/;
    const offenders = [...sources('src'), ...sources('reference-app/src')]
      .filter((file) => file !== 'src/run/metering.ts')
      .flatMap((file) =>
        readFileSync(path.join(ROOT, file), 'utf8')
          .split('\n')
          .map((line, i) => ({ where: `${file}:${i + 1}`, line }))
          .filter(({ line }) => /credit/i.test(line) && own.test(line))
          .map(({ where }) => where),
      );
    expect(offenders).toEqual([]);
  });
});
