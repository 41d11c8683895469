// The npm library: ESM, one output file per source module (preserveModules) so consumers'
// bundlers tree-shake per component, static CSS files emitted by vanilla-extract beside the
// modules that use them, dependencies left external. Types come from tsc (build-lib.mjs).
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { nodeResolve } from '@rollup/plugin-node-resolve';
import esbuild from 'rollup-plugin-esbuild';
import { vanillaExtractPlugin } from '@vanilla-extract/rollup-plugin';
import { localPackages, sourceEntries, projectRoot } from '../source-aliases.mjs';
import { highlightWorkerSource, highlightWorkerUrl } from './highlight-worker.mjs';
import { cssOutOfJs } from './css-out-of-js.mjs';
import { markClientModules } from './use-client.mjs';

const pkg = JSON.parse(readFileSync(path.join(projectRoot, 'package.json'), 'utf8'));
const externalPackages = [...Object.keys(pkg.dependencies ?? {}), ...Object.keys(pkg.peerDependencies ?? {})];
const isExternal = (id) => externalPackages.some((name) => id === name || id.startsWith(`${name}/`));

/**
 * Every export's source file, keyed by the export's name (`service-search`, `theme/dark`);
 * a pattern (`./theme/*`, `./web-components/*`) expands to the files it matches.
 */
export function libraryEntries() {
  const entries = new Map();
  for (const [subpath, file] of Object.entries(sourceEntries())) {
    const name = subpath === '.' ? 'index' : subpath.slice(2);
    if (!file.includes('*')) {
      entries.set(file, name);
      continue;
    }
    const dirPattern = path.dirname(file);
    const [prefix, suffix] = path.basename(file).split('*');
    for (const base of readdirSync(dirPattern)) {
      if (!base.startsWith(prefix) || !base.endsWith(suffix) || base.endsWith(`.css${suffix}`)) continue;
      entries.set(path.join(dirPattern, base), name.replace('*', base.slice(prefix.length, base.length - suffix.length)));
    }
  }
  return entries;
}

export const libraryInputs = () => [...libraryEntries().keys()];

const entries = libraryEntries();
const webComponentsDir = path.join(projectRoot, 'src/web-components') + path.sep;
const componentsDir = path.join(projectRoot, 'src/components') + path.sep;
/** Per-element web-component entries carry their CSS in JavaScript (shadow roots), not a stylesheet. */
const stylesheetEntries = new Map([...entries].filter(([file, name]) => name !== 'index' && !file.startsWith(webComponentsDir)));

// vanilla-extract emits `Name.css.ts.vanilla.css`; put it beside `Name.css.js` as `Name.vanilla.css`.
function cssBesideItsModule(asset) {
  const original = asset.originalFileNames?.[0];
  if (!original) return 'assets/[name][extname]';
  const relative = path.relative(path.join(projectRoot, 'src'), original.replace(/\.vanilla\.css$/, ''));
  return relative.replace(/\.css\.ts$/, '.vanilla.css');
}

/**
 * @limelight/client (packages/client) is not on a registry, so the packed widgets cannot depend
 * on it: its modules are bundled from source into dist/client/ (the job API, src/api/jobs.ts,
 * imports it), and build-lib.mjs copies its declarations beside them.
 */
const clientSources = path.join(projectRoot, 'packages/client/src') + path.sep;
/**
 * @limelight/rules (packages/rules, private) is inlined the same way, beside the SDK as its own
 * build has it (dist/client/rules/, scripts/build-client.mjs), so the SDK's declarations that
 * build-lib.mjs copies resolve their `./rules/index.js`.
 */
const rulesSources = path.join(projectRoot, 'packages/rules/src') + path.sep;
function bundleLocalPackages() {
  return {
    name: 'lime-local-packages',
    resolveId: (source) => localPackages[source] ?? null,
  };
}

export default [
  {
    // The highlighter worker is no export but a file the code viewer starts (highlight-worker.mjs).
    input: [...libraryInputs(), highlightWorkerSource],
    external: isExternal,
    plugins: [
      vanillaExtractPlugin({ identifiers: ({ hash, debugId }) => (debugId ? `lime-${debugId}-${hash}` : `lime-${hash}`) }),
      bundleLocalPackages(),
      nodeResolve({ extensions: ['.ts', '.tsx', '.mjs', '.js'] }),
      esbuild({ target: 'es2022', jsx: 'automatic', tsconfig: path.join(projectRoot, 'tsconfig.json') }),
      highlightWorkerUrl({ fileName: 'code/highlightWorker.js' }),
      cssOutOfJs({
        entries: stylesheetEntries,
        elementEntry: (fileName) => fileName.startsWith('web-components/standalone/'),
        stylesModule: 'web-components/styles.js',
      }),
      // After cssOutOfJs, so the directive stays the first line of the file. Each module that
      // imports React and each component entry (use-client.mjs). Not the custom elements'
      // modules: they are for any framework (Vite warns about the directive in a Vue app), and
      // Next imports them from a Client Component (docs/frameworks.md).
      markClientModules({
        isComponentEntry: (chunk) => chunk.isEntry && entries.has(chunk.facadeModuleId) && chunk.facadeModuleId.startsWith(componentsDir),
        markable: (chunk) => !chunk.facadeModuleId?.startsWith(webComponentsDir),
      }),
    ],
    output: {
      dir: path.join(projectRoot, 'dist'),
      format: 'es',
      preserveModules: true,
      preserveModulesRoot: path.join(projectRoot, 'src'),
      // Modules keep their path under src/; the bundled SDK's go to client/ (they lie outside src/,
      // so rollup names them `../packages/client/src/x`).
      entryFileNames: (chunk) =>
        chunk.facadeModuleId?.startsWith(clientSources)
          ? `client/${path.relative(clientSources, chunk.facadeModuleId).replace(/\.ts$/, '')}.js`
          : chunk.facadeModuleId?.startsWith(rulesSources)
            ? `client/rules/${path.relative(rulesSources, chunk.facadeModuleId).replace(/\.ts$/, '')}.js`
            : '[name].js',
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
