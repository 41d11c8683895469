import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// Two maps a newcomer reads first and nothing else kept true (issue 48, item 7): the README's
// layout block, and the first line of docs/architecture.md's layers, whose arrows say which way
// the imports go. Checked here against the tree and the imports themselves.

const ROOT = path.resolve(import.meta.dirname, '../../..');
const read = (file: string) => readFileSync(path.join(ROOT, file), 'utf8');

/** Every file under `dir` (relative to the root), depth first. */
function filesUnder(dir: string): string[] {
  return readdirSync(path.join(ROOT, dir)).flatMap((name) => {
    const rel = path.posix.join(dir, name);
    return statSync(path.join(ROOT, rel)).isDirectory() ? filesUnder(rel) : [rel];
  });
}

/** The README's layout block: each first-column path with the text of its (wrapped) lines. */
function layoutRows(): Map<string, string> {
  const block = /^## Layout$[\s\S]*?^```\n([\s\S]*?)^```$/m.exec(read('README.md'))?.[1] ?? '';
  const rows = new Map<string, string>();
  let current = '';
  for (const line of block.split('\n')) {
    const head = /^(\S+)\s+(.*)$/.exec(line);
    if (head) rows.set((current = head[1]!), head[2]!);
    else if (current && line.trim()) rows.set(current, `${rows.get(current)} ${line.trim()}`);
  }
  return rows;
}

describe("README.md's layout", () => {
  const rows = layoutRows();

  it('names every folder of test/ that holds tests', () => {
    const testLine = rows.get('test/') ?? '';
    // test/vendor is a third party's code with its own tests, not a layer of ours.
    const layers = readdirSync(path.join(ROOT, 'test'))
      .filter((name) => name !== 'vendor' && statSync(path.join(ROOT, 'test', name)).isDirectory())
      .filter((name) => filesUnder(`test/${name}`).some((file) => /\.(test|spec)\.tsx?$/.test(file)));
    expect(layers).toContain('integration');
    expect(layers.filter((name) => !testLine.includes(`${name}/`))).toEqual([]);
  });

  it('names every subpackage of the Python package', () => {
    const pythonLine = rows.get('sdk/python/') ?? '';
    const packageDir = path.join(ROOT, 'sdk/python/limelight');
    const subpackages = readdirSync(packageDir).filter((name) => existsSync(path.join(packageDir, name, '__init__.py')));
    expect(subpackages).toContain('serve');
    expect(subpackages.filter((name) => !pythonLine.includes(`limelight.${name}`))).toEqual([]);
  });
});

/** The `src/` folders a source file imports by relative path (`../api/http` -> `api`), with the path inside. */
function srcImports(file: string): { folder: string; target: string }[] {
  const text = read(file);
  return [...text.matchAll(/\bfrom\s+'(\.{1,2}\/[^']+)'/g)].flatMap(([, specifier]) => {
    const target = path.posix.relative('src', path.posix.join(path.posix.dirname(file), specifier!));
    return target.startsWith('..') ? [] : [{ folder: target.split('/')[0]!, target }];
  });
}

describe("docs/architecture.md's layers", () => {
  // The first line of the diagram: `a ─▶ b ─▶ c, d`, each arrow pointing from a layer to those
  // that build on it.
  const diagram = /^## Layers$[\s\S]*?^```\n(.*)$/m.exec(read('docs/architecture.md'))?.[1] ?? '';
  const layers = diagram.split('─▶').map((part) => part.split(',').map((name) => name.trim().replace(/^src\//, '')));
  const sources = (folder: string) => filesUnder(`src/${folder}`).filter((file) => /\.tsx?$/.test(file));

  it('reads as a chain of src/ folders', () => {
    expect(layers.length).toBeGreaterThan(2);
    for (const folder of layers.flat()) expect(existsSync(path.join(ROOT, 'src', folder)), folder).toBe(true);
  });

  it.each(layers.slice(0, -1).map((lower, i) => [lower.join(', '), layers[i + 1]!.join(', ')]))(
    'points from %s to %s: the upper layer imports the lower, never the reverse',
    (lowerNames, upperNames) => {
      const lower = lowerNames.split(', ');
      const upper = upperNames.split(', ');
      const upward = lower.flatMap((folder) =>
        sources(folder).flatMap((file) =>
          srcImports(file)
            // src/api's one allowed import from src/config: the strings table is plain data
            // (eslint.config.js, docs/architecture.md "Layers").
            .filter(({ folder: to, target }) => upper.includes(to) && !target.startsWith('config/strings'))
            .map(({ target }) => `${file} imports ${target}`),
        ),
      );
      expect(upward).toEqual([]);
      const downward = upper.some((folder) =>
        sources(folder).some((file) => srcImports(file).some(({ folder: to }) => lower.includes(to))),
      );
      expect(downward).toBe(true);
    },
  );
});
