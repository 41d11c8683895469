import { describe, expect, it } from 'vitest';
import { incompleteEntries } from '../../../../scripts/lockfile.mjs';
import { appendVary, isCompressibleType, preferredEncoding } from '../../../../reference-app/server/http/encoding';
import { matchesEtag } from '../../../../reference-app/server/http/etag';
import { workerCount } from '../../../../reference-app/server/config';
import { workersRefusal } from '../../../../reference-app/server/workers';

// The pure rules behind delivery (docs/deploy.md): content negotiation, validators, WORKERS,
// and the lockfile's completeness check.

describe('preferredEncoding', () => {
  it.each([
    [undefined, undefined],
    ['', undefined],
    ['gzip, deflate, br, zstd', 'br'],
    ['gzip', 'gzip'],
    ['x-gzip', 'gzip'],
    ['br;q=0, gzip', 'gzip'],
    ['gzip;q=1, br;q=0.5', 'gzip'],
    ['br;q=0.8, gzip;q=0.8', 'br'],
    ['*', 'br'],
    ['*;q=0, identity', undefined],
    ['identity', undefined],
    ['deflate', undefined],
  ] as const)('Accept-Encoding %j -> %j', (header, expected) => {
    expect(preferredEncoding(header)).toBe(expected);
  });

  it('chooses only among the copies that exist', () => {
    expect(preferredEncoding('br, gzip', { gzip: true })).toBe('gzip');
    expect(preferredEncoding('br', { gzip: true })).toBeUndefined();
    expect(preferredEncoding('gzip', { br: true })).toBeUndefined();
  });
});

describe('isCompressibleType', () => {
  it.each([
    ['application/json', true],
    ['application/json; charset=utf-8', true],
    ['text/html; charset=utf-8', true],
    ['text/javascript', true],
    ['image/svg+xml', true],
    ['text/event-stream', false],
    ['image/png', false],
    ['application/zip', false],
    [null, false],
  ] as const)('%s -> %s', (type, expected) => {
    expect(isCompressibleType(type)).toBe(expected);
  });
});

describe('appendVary', () => {
  it('adds a header name once, case-insensitively, and leaves * alone', () => {
    expect(appendVary(null, 'Accept-Encoding')).toBe('Accept-Encoding');
    expect(appendVary('Authorization', 'Accept-Encoding')).toBe('Authorization, Accept-Encoding');
    expect(appendVary('accept-encoding', 'Accept-Encoding')).toBe('accept-encoding');
    expect(appendVary('*', 'Accept-Encoding')).toBe('*');
  });
});

describe('matchesEtag', () => {
  it('compares weakly, in lists, and honours *', () => {
    expect(matchesEtag('"abc"', '"abc"')).toBe(true);
    expect(matchesEtag('W/"abc"', '"abc"')).toBe(true);
    expect(matchesEtag('"x", W/"abc"', '"abc"')).toBe(true);
    expect(matchesEtag('*', '"abc"')).toBe(true);
    expect(matchesEtag('"abd"', '"abc"')).toBe(false);
    expect(matchesEtag(undefined, '"abc"')).toBe(false);
  });
});

describe('WORKERS', () => {
  it('reads a whole number of at least 1, or auto (one per CPU)', () => {
    expect(workerCount({}, 8)).toBe(1);
    expect(workerCount({ WORKERS: ' 3 ' }, 8)).toBe(3);
    expect(workerCount({ WORKERS: 'auto' }, 8)).toBe(8);
    expect(() => workerCount({ WORKERS: '0' }, 8)).toThrow('WORKERS must be a whole number ≥ 1, or auto, got "0"');
    expect(() => workerCount({ WORKERS: '1.5' }, 8)).toThrow('got "1.5"');
  });

  it('refuses several processes on PGlite or with --dev', () => {
    expect(workersRefusal(1, { databaseUrl: undefined }, false)).toBeUndefined();
    expect(workersRefusal(2, { databaseUrl: 'postgres://db/x' }, false)).toBeUndefined();
    expect(workersRefusal(2, { databaseUrl: undefined }, false)).toMatch(/^WORKERS=2 needs DATABASE_URL/);
    expect(workersRefusal(2, { databaseUrl: 'postgres://db/x' }, true)).toMatch(/cannot be combined with --dev/);
  });
});

describe('lockfile completeness', () => {
  it('finds packages whose optional dependencies have no lock entry, looking up node_modules like Node', () => {
    const lock = {
      packages: {
        '': { optionalDependencies: { fsevents: '2' } },
        'node_modules/rollup': { optionalDependencies: { '@rollup/rollup-linux-x64-gnu': '4', '@rollup/rollup-darwin-arm64': '4' } },
        'node_modules/@rollup/rollup-linux-x64-gnu': {},
        'node_modules/esbuild': { optionalDependencies: { '@esbuild/linux-x64': '0' } },
        'node_modules/esbuild/node_modules/@esbuild/linux-x64': {},
        'node_modules/fsevents': {},
      },
    };
    expect(incompleteEntries(lock)).toEqual(['node_modules/rollup']);
  });
});
