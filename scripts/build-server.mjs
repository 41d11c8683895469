// Builds the platform server for production: ES modules dist/server/main.mjs (the server),
// dist/server/runner.mjs (the runner agent, docs/deploy.md) and dist/server/keys.mjs (`npm run
// keys`), run with plain `node` (no
// TypeScript loader). Skipped when the bundle is newer than every source it
// comes from; `--force` rebuilds. See docs/deploy.md.
//
// Bundled: the server's sources, the widget sources it shares (through the package's `source`
// exports) and its pure-JS dependencies. Left external, so installed node_modules provide them:
// PGlite (loads its WebAssembly and data files beside its own module), @node-rs/argon2 (a
// native addon), pg-native (optional in pg), vite (only for --dev) and jimp (reads its bitmap
// fonts from files beside its own module, which a bundle moves away from them), dockerode
// (through ssh2, optional native addons) and sharp (a native addon whose libvips comes from the
// @img/* optional packages) and jsdom (server/http/descriptionPurifier.ts; its sync-XHR worker
// is a file it resolves beside itself).
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';
import { localPackages, packageName, projectRoot, sourceEntries } from './source-aliases.mjs';

export const SERVER_ENTRY = path.join(projectRoot, 'reference-app/server/main.ts');
export const SERVER_BUNDLE = path.join(projectRoot, 'dist/server/main.mjs');
export const RUNNER_ENTRY = path.join(projectRoot, 'reference-app/server/runner.ts');
export const RUNNER_BUNDLE = path.join(projectRoot, 'dist/server/runner.mjs');
// `npm run keys` where there are no sources or TypeScript loader, as in the container:
// `node dist/server/keys.mjs` (reference-app/server/README.md, "Auth keys").
export const KEYS_ENTRY = path.join(projectRoot, 'reference-app/server/keys.ts');
// PGlite's worker thread (reference-app/server/db/pgliteThread.ts), which the server starts from
// beside itself: ./pgliteWorker.mjs next to the source file and next to main.mjs alike.
export const PGLITE_WORKER_ENTRY = path.join(projectRoot, 'reference-app/server/db/pgliteWorker.mjs');
export const SERVER_EXTERNAL = [
  '@electric-sql/pglite',
  '@electric-sql/pglite/*',
  '@node-rs/argon2',
  'pg-native',
  'vite',
  'jimp',
  '@jimp/*',
  // dockerode reaches ssh2, whose optional native addons (sshcrypto.node, cpu-features) a bundle cannot carry.
  'dockerode',
  'sharp',
  // jsdom (the server DOM descriptions are sanitised with) reads files beside its own modules.
  'jsdom',
];

export function newestMtime(target) {
  if (!existsSync(target)) return 0;
  const stat = statSync(target);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const name of readdirSync(target)) newest = Math.max(newest, newestMtime(path.join(target, name)));
  return newest;
}

/** True when the bundle is missing or older than the server or widget sources, or the lockfile. */
export function serverBuildIsStale() {
  if (!existsSync(SERVER_BUNDLE) || !existsSync(RUNNER_BUNDLE)) return true;
  const built = Math.min(statSync(SERVER_BUNDLE).mtimeMs, statSync(RUNNER_BUNDLE).mtimeMs);
  const inputs = [
    'reference-app/server',
    'src',
    'packages/client/src',
    'packages/rules/src',
    'package-lock.json',
    'scripts/build-server.mjs',
  ];
  return inputs.some((input) => newestMtime(path.join(projectRoot, input)) > built);
}

/** The file of a subpath that a `./theme/*`-style export covers (the `*` is one file name), as sourceAliases resolves it. */
function wildcardEntry(entries, subpath) {
  for (const [pattern, file] of Object.entries(entries)) {
    const [before, after] = pattern.split('*');
    if (after === undefined || !subpath.startsWith(before) || !subpath.endsWith(after)) continue;
    const name = subpath.slice(before.length, subpath.length - after.length);
    if (name && !name.includes('/')) return file.replace('*', name);
  }
  return undefined;
}

/**
 * `@limelight/widgets/x` imports resolve to the TypeScript sources, as in every dev tool, and so
 * does @limelight/client (packages/client, which the widgets' job API uses; not installed).
 */
const sourceExports = {
  name: 'limelight-source-exports',
  setup(b) {
    for (const [name, file] of Object.entries(localPackages)) {
      b.onResolve({ filter: new RegExp(`^${name.replace(/[/.]/g, '\\$&')}$`) }, () => ({ path: file }));
    }
    const entries = sourceEntries();
    b.onResolve({ filter: new RegExp(`^${packageName.replace(/[/.]/g, '\\$&')}(/|$)`) }, (args) => {
      const subpath = `.${args.path.slice(packageName.length)}`;
      const file = entries[subpath] ?? wildcardEntry(entries, subpath);
      return file ? { path: file } : { errors: [{ text: `${args.path} has no source export in package.json` }] };
    });
  },
};

export async function buildServer() {
  await build({
    // Each entry is bundled whole (no shared chunks), so either file runs on its own.
    entryPoints: { main: SERVER_ENTRY, runner: RUNNER_ENTRY, keys: KEYS_ENTRY, pgliteWorker: PGLITE_WORKER_ENTRY },
    outdir: path.dirname(SERVER_BUNDLE),
    outExtension: { '.js': '.mjs' },
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'esm',
    sourcemap: true,
    external: SERVER_EXTERNAL,
    plugins: [sourceExports],
    define: { 'process.env.NODE_ENV': '"production"' },
    // CommonJS dependencies (pg, nodemailer) call require and read __dirname inside an ES module.
    banner: {
      js: [
        "import { createRequire as __limeCreateRequire } from 'node:module';",
        "import { fileURLToPath as __limeFileURLToPath } from 'node:url';",
        'const require = __limeCreateRequire(import.meta.url);',
        'const __filename = __limeFileURLToPath(import.meta.url);',
        "const __dirname = __limeFileURLToPath(new URL('.', import.meta.url));",
      ].join('\n'),
    },
    logLevel: 'warning',
    legalComments: 'none',
  });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  if (process.argv.includes('--force') || serverBuildIsStale()) {
    await buildServer();
    console.log(`built ${path.relative(projectRoot, SERVER_BUNDLE)} and ${path.relative(projectRoot, RUNNER_BUNDLE)}`);
  }
}
