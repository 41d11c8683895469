// The npm library: ESM, one output file per source module (preserveModules) so consumers'
// bundlers tree-shake per component, static CSS files emitted by vanilla-extract beside the
// modules that use them, dependencies left external. Types come from tsc (build-lib.mjs).
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { nodeResolve } from '@rollup/plugin-node-resolve';
import esbuild from 'rollup-plugin-esbuild';
import { vanillaExtractPlugin } from '@vanilla-extract/rollup-plugin';
import { sourceEntries, projectRoot } from '../source-aliases.mjs';
import { highlightWorkerSource, highlightWorkerUrl } from './highlight-worker.mjs';

const pkg = JSON.parse(readFileSync(path.join(projectRoot, 'package.json'), 'utf8'));
const externalPackages = [...Object.keys(pkg.dependencies ?? {}), ...Object.keys(pkg.peerDependencies ?? {})];
const isExternal = (id) => externalPackages.some((name) => id === name || id.startsWith(`${name}/`));

/** Every export's source file; the `./theme/*` pattern expands to the files it matches. */
export function libraryInputs() {
  const inputs = [];
  for (const file of Object.values(sourceEntries())) {
    if (!file.includes('*')) {
      inputs.push(file);
      continue;
    }
    const [dirPattern, suffix] = [path.dirname(file), path.basename(file).split('*')[1]];
    for (const name of readdirSync(dirPattern)) {
      if (name.endsWith(suffix) && !name.endsWith(`.css${suffix}`)) inputs.push(path.join(dirPattern, name));
    }
  }
  return inputs;
}

// vanilla-extract emits `Name.css.ts.vanilla.css`; put it beside `Name.css.js` as `Name.vanilla.css`.
function cssBesideItsModule(asset) {
  const original = asset.originalFileNames?.[0];
  if (!original) return 'assets/[name][extname]';
  const relative = path.relative(path.join(projectRoot, 'src'), original.replace(/\.vanilla\.css$/, ''));
  return relative.replace(/\.css\.ts$/, '.vanilla.css');
}

export default [
  {
    // The highlighter worker is no export but a file the code viewer starts (highlight-worker.mjs).
    input: [...libraryInputs(), highlightWorkerSource],
    external: isExternal,
    plugins: [
      vanillaExtractPlugin({ identifiers: ({ hash, debugId }) => (debugId ? `lime-${debugId}-${hash}` : `lime-${hash}`) }),
      nodeResolve({ extensions: ['.ts', '.tsx', '.mjs', '.js'] }),
      esbuild({ target: 'es2022', jsx: 'automatic', tsconfig: path.join(projectRoot, 'tsconfig.json') }),
      highlightWorkerUrl({ fileName: 'code/highlightWorker.js' }),
    ],
    output: {
      dir: path.join(projectRoot, 'dist'),
      format: 'es',
      preserveModules: true,
      preserveModulesRoot: path.join(projectRoot, 'src'),
      entryFileNames: '[name].js',
      assetFileNames: cssBesideItsModule,
      sourcemap: true,
    },
    onwarn(warning, warn) {
      // Unused external imports are expected: re-exported types resolve to nothing at runtime.
      if (warning.code === 'UNUSED_EXTERNAL_IMPORT') return;
      warn(warning);
    },
  },
];
