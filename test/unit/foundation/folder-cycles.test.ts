import { describe, expect, it } from 'vitest';
import { ALLOWED, cruise, folderCycles, folderEdges, nodeOf, report, setAside } from '../../../scripts/folder-cycles.mjs';

// The folder-level half of npm test's `cycles` step (scripts/folder-cycles.mjs, docs/architecture.md,
// "Server layers"): folders of the server are nodes, a file importing across folders an edge, and
// any loop left once the allowed edges are set aside fails the step, printed with its imports.

const S = 'reference-app/server';
/** dependency-cruiser's modules for `file: [imports]` pairs, paths under the server. */
const modules = (graph: Record<string, string[]>) =>
  Object.entries(graph).map(([source, imports]) => ({
    source: `${S}/${source}`,
    dependencies: imports.map((resolved) => ({ resolved: resolved.startsWith('node_modules/') ? resolved : `${S}/${resolved}` })),
  }));

describe('scripts/folder-cycles.mjs', () => {
  it('makes a node of each folder and of each file at the server’s root', () => {
    expect(nodeOf(`${S}/hosting/sql/lease.ts`)).toBe('hosting/');
    expect(nodeOf(`${S}/platform.ts`)).toBe('platform.ts');
    expect(nodeOf('src/api/http.ts')).toBeUndefined();
  });

  it('finds a loop between folders whose files import no file of a loop, and names an import per edge', () => {
    // No file-level cycle: hosting/a.ts → jobs/b.ts and jobs/c.ts → hosting/d.ts.
    const edges = folderEdges(
      modules({
        'hosting/a.ts': ['jobs/b.ts', 'hosting/d.ts', 'node_modules/kysely/index.js'],
        'jobs/c.ts': ['hosting/d.ts', 'errors.ts'],
        'platform.ts': ['hosting/a.ts', 'jobs/c.ts'],
      }),
    );
    expect([...edges.keys()].sort()).toEqual([
      'hosting/ -> jobs/',
      'jobs/ -> errors.ts',
      'jobs/ -> hosting/',
      'platform.ts -> hosting/',
      'platform.ts -> jobs/',
    ]);
    expect(folderCycles(edges, [])).toEqual([{ folders: ['hosting/', 'jobs/'], loop: ['hosting/', 'jobs/', 'hosting/'] }]);
    const lines = report(edges, []);
    expect(lines.join('\n')).toContain('Folder cycle through 2 folders (hosting/, jobs/):');
    expect(lines).toContain('    hosting/ → jobs/: hosting/a.ts → jobs/b.ts');
    expect(lines).toContain('    jobs/ → hosting/: jobs/c.ts → hosting/d.ts');
  });

  it('finds a loop through three folders and sets the allowed edges aside', () => {
    const edges = folderEdges(
      modules({ 'a/x.ts': ['b/x.ts'], 'b/x.ts': ['c/x.ts'], 'c/x.ts': ['a/x.ts', 'api/x.ts'], 'api/x.ts': ['c/y.ts'] }),
    );
    expect(folderCycles(edges, []).map(({ folders }) => folders)).toEqual([['a/', 'api/', 'b/', 'c/']]);
    expect(folderCycles(edges, [{ edge: '* -> api/', why: '' }]).map(({ loop }) => loop)).toEqual([['a/', 'b/', 'c/', 'a/']]);
    const allowed = [
      { edge: '* -> api/', why: '' },
      { edge: 'c/ -> a/', why: '' },
    ];
    expect(report(edges, allowed)).toEqual([]);
    // What each entry sets aside, as the step prints it when it passes.
    expect(setAside(edges, allowed)).toEqual([
      { edge: '* -> api/', edges: ['c/ -> api/'] },
      { edge: 'c/ -> a/', edges: ['c/ -> a/'] },
    ]);
  });

  it('fails on an allowed edge that no import makes any more', () => {
    const edges = folderEdges(modules({ 'a/x.ts': ['b/x.ts'] }));
    expect(report(edges, [{ edge: 'b/ -> a/', why: 'gone' }])).toEqual([
      'No import makes the allowed edge "b/ -> a/" any more: delete its entry from ALLOWED in scripts/folder-cycles.mjs.',
    ]);
  });

  it('finds no loop in the server’s folders, with nothing set aside', () => {
    // Issue 48, item 1: the last four allowed edges (* -> api/, * -> config.ts, hosting/ -> jobs/,
    // media/ -> seed/) are cut; the composition root (v1/, platform.ts) is the only importer above.
    expect(ALLOWED).toEqual([]);
    const edges = folderEdges(cruise());
    expect(report(edges)).toEqual([]);
    expect([...edges.keys()].filter((key) => key.endsWith(' -> v1/'))).toEqual(['app.ts -> v1/']);
    // Of the folders, only the /v1 assembly reads the whole ServerConfig; the others take config/core.ts's.
    expect([...edges.keys()].filter((key) => key.endsWith('/ -> config.ts'))).toEqual(['v1/ -> config.ts']);
  }, 30_000);
});
