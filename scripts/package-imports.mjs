// What the built library imports from other packages, against what package.json declares
// (npm run test:package, scripts/check-package.mjs): every package a file in the tarball imports
// must be a dependency or peer dependency (else a consumer's install lacks it), and every
// dependency must be imported by some file (else every consumer installs it for nothing, as
// sharp, rate-limiter-flexible, ipaddr.js and standardwebhooks once were; issue 36).
import { readdirSync } from 'node:fs';
import { builtinModules } from 'node:module';
import path from 'node:path';
import { build } from 'esbuild';

/** `@scope/name/sub` -> `@scope/name`, `name/sub` -> `name`. */
export const packageOf = (specifier) =>
  specifier
    .split('/')
    .slice(0, specifier.startsWith('@') ? 2 : 1)
    .join('/');

/** `node:x` and Node's own modules by their bare names (`fs`, `util`). */
export const isBuiltin = (specifier) => specifier.startsWith('node:') || builtinModules.includes(packageOf(specifier));

/**
 * Package name -> the first built file importing it, over the JavaScript files under `dir`
 * except the folders named in `skip` (relative to `dir`). Static, re-export and dynamic imports
 * with a literal specifier count; strings that merely look like imports (code samples) do not.
 */
export async function builtImports(dir, skip = []) {
  const files = readdirSync(dir, { recursive: true })
    .map(String)
    .filter((name) => /\.m?js$/.test(name) && !skip.some((folder) => name.startsWith(`${folder}/`)))
    .map((name) => path.join(dir, name));
  const importers = new Map();
  const result = await build({
    entryPoints: files,
    bundle: true,
    write: false,
    metafile: true,
    outdir: path.join(dir, '.imports-scan'),
    format: 'esm',
    platform: 'neutral',
    logLevel: 'silent',
    loader: { '.css': 'empty' },
    plugins: [
      {
        name: 'bare-specifiers-external',
        setup(b) {
          b.onResolve({ filter: /^[^./]/ }, (args) => ({ path: args.path, external: true }));
        },
      },
    ],
  });
  for (const [input, { imports }] of Object.entries(result.metafile.inputs)) {
    for (const { path: specifier, external } of imports) {
      if (!external || isBuiltin(specifier)) continue;
      const name = packageOf(specifier);
      if (!importers.has(name)) importers.set(name, input);
    }
  }
  return importers;
}

/** Sentences naming what the manifest lacks or carries for nothing; empty when they agree. */
export function dependencyProblems(pkg, importers) {
  const declared = new Set([...Object.keys(pkg.dependencies ?? {}), ...Object.keys(pkg.peerDependencies ?? {})]);
  const problems = [];
  for (const [name, file] of importers) {
    if (!declared.has(name) && name !== pkg.name)
      problems.push(`${file} imports ${name}, which is not in dependencies or peerDependencies`);
  }
  for (const name of Object.keys(pkg.dependencies ?? {})) {
    if (!importers.has(name)) problems.push(`dependency ${name} is imported by no built file: move it to devDependencies or remove it`);
  }
  return problems;
}
