// One source of truth for entry points: package.json `exports`. Each export's `source`
// condition names the TypeScript file behind it; dev tools (Vite, Vitest, Storybook) alias the
// public specifiers to those files so the reference app imports exactly what consumers import.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));

/** Export subpath -> absolute source file, for every export that has a `source` condition. */
export function sourceEntries() {
  const entries = {};
  for (const [subpath, target] of Object.entries(pkg.exports)) {
    if (typeof target === 'object' && target.source) entries[subpath] = path.join(root, target.source);
  }
  return entries;
}

/** Packages of their own in this repository (packages/*), by name -> source entry. */
export const localPackages = {
  '@limelight/client': path.join(root, 'packages/client/src/index.ts'),
  // The job API's statuses and limits alone, which the widgets share without loading the client.
  '@limelight/client/types': path.join(root, 'packages/client/src/types.ts'),
  // The platform's rules (prices, limits, defaults, statuses): private, inlined by every build.
  '@limelight/rules': path.join(root, 'packages/rules/src/index.ts'),
};

/** Vite `resolve.alias` entries mapping `@limelight/widgets[/x]` (and local packages) to source files. */
export function sourceAliases() {
  const local = Object.entries(localPackages).map(([name, file]) => ({ find: new RegExp(`^${escape(name)}$`), replacement: file }));
  return local.concat(
    Object.entries(sourceEntries()).map(([subpath, file]) => {
      const specifier = pkg.name + subpath.slice(1);
      if (subpath.includes('*')) {
        const [before, after] = specifier.split('*');
        const [fileBefore, fileAfter] = file.split('*');
        return { find: new RegExp(`^${escape(before)}(.+)${escape(after)}$`), replacement: `${fileBefore}$1${fileAfter}` };
      }
      return { find: new RegExp(`^${escape(specifier)}$`), replacement: file };
    }),
  );
}

const escape = (s) => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
export const projectRoot = root;
export const packageName = pkg.name;
