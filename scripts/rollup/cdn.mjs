// Script-tag bundles (dist/cdn): one self-contained ES module per element, for pages with no
// build step:
//
//   <script type="module" src="https://cdn.example/lime-service-search.js"></script>
//
// - React is aliased to preact/compat (same components, a fraction of the bytes).
// - All entries are built together, so what they share (preact, the wrapper layer, the platform
//   config, the API client, the theme) lands in chunks under dist/cdn/chunks that a page loading
//   two bundles fetches and evaluates once. Element registration is guarded besides (define.ts).
// - CSS: every vanilla-extract CSS module becomes a JavaScript module calling
//   `registerStyles("<minified css>")` (src/web-components/styles.ts), which turns it into a
//   constructable stylesheet adopted by the shadow roots. Why not a `.css` file: fetching it
//   would need `style-src` to allow the CDN origin (a `<link>`) and costs a request and a flash
//   of unstyled content; CSSOM-built sheets are outside `style-src`, so the bundles run under
//   `style-src 'self'` (or even `style-src 'none'`) wherever the script itself is allowed.
import { readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import alias from '@rollup/plugin-alias';
import commonjs from '@rollup/plugin-commonjs';
import json from '@rollup/plugin-json';
import { nodeResolve } from '@rollup/plugin-node-resolve';
import replace from '@rollup/plugin-replace';
import terser from '@rollup/plugin-terser';
import { vanillaExtractPlugin } from '@vanilla-extract/rollup-plugin';
import { transform as esbuildTransform } from 'esbuild';
import MagicString from 'magic-string';
import esbuild from 'rollup-plugin-esbuild';
import { projectRoot, sourceAliases } from '../source-aliases.mjs';

const webComponents = path.join(projectRoot, 'src/web-components');
const stylesModule = path.join(webComponents, 'styles.ts');
const cdnDir = path.join(projectRoot, 'dist/cdn');

/** Entry name (dist/cdn/<name>.js) -> standalone source. */
export const cdnEntries = {
  'lime-service-search': path.join(webComponents, 'standalone/lime-service-search.ts'),
  'lime-auth-dialog': path.join(webComponents, 'standalone/lime-auth-dialog.ts'),
  'lime-code-viewer': path.join(webComponents, 'standalone/lime-code-viewer.ts'),
  'lime-pricing-calculator': path.join(webComponents, 'standalone/lime-pricing-calculator.ts'),
};

/**
 * Applies package.json `sideEffects` to our own sources, as a consumer's bundler would: a source
 * module is side-effect free unless listed, so registering one element does not drag the other
 * widgets in through define.ts. (node-resolve applies each dependency's own field.)
 */
function ownSideEffects() {
  const pkg = JSON.parse(readFileSync(path.join(projectRoot, 'package.json'), 'utf8'));
  const listed = (pkg.sideEffects || []).filter((p) => p.startsWith('./src/')).map((p) => path.join(projectRoot, p));
  const src = path.join(projectRoot, 'src') + path.sep;
  const entries = new Set(Object.values(cdnEntries));
  return (id) => {
    if (!id.startsWith(src)) return null; // let node-resolve / other plugins decide
    return entries.has(id) || listed.includes(id);
  };
}

function ownSideEffectsOr(fallback) {
  const own = ownSideEffects();
  return (id, external) => own(id) ?? (external ? true : fallback);
}

/** Browsers the bundles target: those with constructable stylesheets and adoptedStyleSheets. */
const target = ['chrome111', 'edge111', 'firefox111', 'safari16.4'];

/**
 * Turns vanilla-extract's CSS imports into `registerStyles(...)` modules. Runs before the
 * vanilla-extract plugin, asks it to resolve the virtual CSS file (which yields the CSS in
 * `meta.css`), and serves a JavaScript module instead of leaving an external `.css` import.
 */
export function adoptableCss() {
  const cssById = new Map();
  const PREFIX = '\0lime-css:';
  return {
    name: 'lime-adoptable-css',
    async resolveId(source, importer, options) {
      if (!source.includes('.vanilla.css')) return null;
      const resolved = await this.resolve(source, importer, { ...options, skipSelf: true });
      const css = resolved?.meta?.css;
      if (typeof css !== 'string') return null;
      const id = PREFIX + resolved.id;
      cssById.set(id, css);
      return { id, moduleSideEffects: true };
    },
    async load(id) {
      if (!id.startsWith(PREFIX)) return null;
      const { code } = await esbuildTransform(cssById.get(id), { loader: 'css', minify: true, target });
      return `import { registerStyles } from ${JSON.stringify(stylesModule)};\nregisterStyles(${JSON.stringify(code.trim())});\n`;
    },
  };
}

/**
 * Fails the build when a module that must not ship in the script-tag bundles gets in: the whole
 * Supabase client (the auth bundle uses @supabase/auth-js alone) or real React.
 */
function forbidModules(patterns) {
  return {
    name: 'lime-forbid-modules',
    moduleParsed(info) {
      const hit = patterns.find((p) => p.test(info.id));
      if (hit) {
        const chain = [];
        for (let id = info.id, n = 0; id && n < 12; n++) {
          chain.push(path.relative(projectRoot, id));
          id = this.getModuleInfo(id)?.importers[0];
        }
        this.error(`${path.relative(projectRoot, info.id)} must not be in the CDN bundles (${hit}). Imported via:\n  ${chain.join('\n  <- ')}`);
      }
    },
  };
}

/**
 * The element definitions (src/web-components/definitions.ts) carry the documentation the
 * manifest and docs are generated from; at run time only names, types and flags matter. Drop
 * the documentation properties from the bundles instead of splitting the one source in two.
 */
function stripDefinitionDocs() {
  const file = path.join(webComponents, 'definitions.ts');
  const docKeys = new Set(['description', 'default', 'typeText', 'values', 'detail', 'returns', 'parameters', 'cssProperties']);
  return {
    name: 'lime-strip-definition-docs',
    transform(code, id) {
      if (id !== file) return null;
      const ast = this.parse(code);
      const out = new MagicString(code);
      const visit = (node) => {
        if (!node || typeof node.type !== 'string') return;
        if (node.type === 'ObjectExpression') {
          for (const prop of node.properties) {
            const key = prop.type === 'Property' && !prop.computed ? (prop.key.name ?? prop.key.value) : undefined;
            if (docKeys.has(key)) {
              // Remove the property and its trailing comma.
              const end = code[prop.end] === ',' ? prop.end + 1 : prop.end;
              out.remove(prop.start, end);
            } else visit(prop.value);
          }
          return;
        }
        for (const value of Object.values(node)) {
          if (Array.isArray(value)) value.forEach(visit);
          else if (value && typeof value === 'object') visit(value);
        }
      };
      visit(ast);
      return { code: out.toString(), map: out.generateMap({ hires: true }) };
    },
  };
}

const reactToPreact = [
  { find: /^react$/, replacement: 'preact/compat' },
  { find: /^react-dom$/, replacement: 'preact/compat' },
  { find: /^react-dom\/client$/, replacement: 'preact/compat/client' },
  { find: /^react\/jsx-runtime$/, replacement: 'preact/compat/jsx-runtime' },
  { find: /^react\/jsx-dev-runtime$/, replacement: 'preact/compat/jsx-dev-runtime' },
  // preact/compat ships useSyncExternalStore; the shim's own copy would only add bytes.
  { find: /^use-sync-external-store\/shim$/, replacement: 'preact/compat' },
  { find: /^use-sync-external-store\/shim\/index\.js$/, replacement: 'preact/compat' },
];

/** Empties dist/cdn before writing, so stale chunks never linger beside the new ones. */
function cleanOutput() {
  return {
    name: 'lime-clean-cdn',
    renderStart(options) {
      if (options.dir) rmSync(options.dir, { recursive: true, force: true });
    },
  };
}

/** @type {import('rollup').RollupOptions[]} */
export default [
  {
    input: cdnEntries,
    treeshake: { moduleSideEffects: ownSideEffectsOr(true) },
    plugins: [
      cleanOutput(),
      forbidModules([
        /node_modules\/@supabase\/(supabase-js|postgrest-js|realtime-js|storage-js|functions-js)\//,
        /node_modules\/react-dom\//,
        /node_modules\/react\//,
      ]),
      alias({ entries: [...reactToPreact, ...sourceAliases()] }),
      adoptableCss(),
      vanillaExtractPlugin({ identifiers: 'short' }),
      replace({
        preventAssignment: true,
        values: { 'process.env.NODE_ENV': JSON.stringify('production') },
      }),
      nodeResolve({
        browser: true,
        extensions: ['.ts', '.tsx', '.mjs', '.js', '.json'],
        exportConditions: ['browser', 'module', 'import', 'default', 'production'],
        dedupe: ['preact'],
      }),
      json(),
      commonjs(),
      esbuild({
        target,
        jsx: 'automatic',
        tsconfig: path.join(projectRoot, 'tsconfig.json'),
        define: { 'process.env.NODE_ENV': '"production"' },
      }),
      stripDefinitionDocs(),
      terser({
        ecma: 2020,
        module: true,
        compress: { passes: 2, pure_getters: true },
        format: { comments: false },
      }),
    ],
    output: {
      dir: cdnDir,
      format: 'es',
      entryFileNames: '[name].js',
      // The chunk every bundle shares (preact, the wrapper layer, the platform config) is named
      // `runtime`; others keep the name of their first module.
      chunkFileNames: (chunk) =>
        chunk.moduleIds.some((id) => id.includes('/node_modules/preact/')) ? 'chunks/runtime-[hash].js' : 'chunks/[name]-[hash].js',
      // Fewer, larger shared chunks: fewer requests for a page that loads one bundle.
      experimentalMinChunkSize: 4000,
      generatedCode: 'es2015',
    },
    onwarn(warning, warn) {
      // Libraries' "use client" directives mean nothing in a browser bundle.
      if (warning.code === 'MODULE_LEVEL_DIRECTIVE') return;
      warn(warning);
    },
  },
];
