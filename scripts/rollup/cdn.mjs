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
import { highlightWorkerSource, highlightWorkerUrl } from './highlight-worker.mjs';

const webComponents = path.join(projectRoot, 'src/web-components');
const stylesModule = path.join(webComponents, 'styles.ts');
const cdnDir = path.join(projectRoot, 'dist/cdn');

const entry = (name) => path.join(webComponents, `standalone/${name}.ts`);
/** dist/cdn/lime-code-highlighter.js: a worker script, not an element; lime-code-viewer starts it. */
const HIGHLIGHT_WORKER = 'lime-code-highlighter';

/**
 * Entry name (dist/cdn/<name>.js) -> standalone source, in build groups. Entries of one group
 * share chunks. Tree-shaking is global to a build, so a module two entries share carries what
 * either uses: grouping the code viewer (shiki, floating-ui interactions) with the search would
 * make the search pay for them. The search and the sign-in overlay, which pages load together,
 * form one group; the content widgets another. A page loading one of each group gets two copies
 * of the runtime (preact and the wrapper layer), and everything still works.
 */
export const cdnGroups = [
  {
    entries: { 'lime-service-search': entry('lime-service-search'), 'lime-auth-dialog': entry('lime-auth-dialog') },
    // Groups of the strings table (src/config/strings) these widgets read; see onlyStrings().
    strings: ['common', 'notifications', 'search', 'auth'],
  },
  {
    // The account panels share one runtime among themselves. Not in the search's group: the
    // account strings and the panels' shared modules would push the search and the sign-in
    // overlay over their budgets (measured: +1.9 kB and +2.3 kB), as tree-shaking is global to
    // a group. Their sign-in overlay loads on demand (a lazy chunk).
    entries: Object.fromEntries(
      [
        'lime-api-keys',
        'lime-profile-form',
        'lime-change-password',
        'lime-mfa',
        'lime-credits',
        'lime-subscription',
        'lime-transactions',
        'lime-usage-chart',
        'lime-registry-credentials',
        'lime-support-form',
      ].map((name) => [name, entry(name)]),
    ),
    strings: ['common', 'notifications', 'auth', 'account'],
  },
  {
    entries: { 'lime-code-viewer': entry('lime-code-viewer'), 'lime-pricing-calculator': entry('lime-pricing-calculator') },
    strings: ['common', 'notifications', 'code', 'pricing'],
  },
  {
    // The runner carries the sign-in overlay (401 -> sign in -> run), the jobs client and the
    // schema validator; grouped alone so neither the search nor the overlay pays for the rest.
    // The jobs client's core, @limelight/client (5.3 kB), is a chunk loaded at the first job
    // call (src/api/jobs.ts); the account panels, which never call it, share the same file.
    entries: { 'lime-service-runner': entry('lime-service-runner') },
    strings: ['common', 'notifications', 'auth', 'runner'],
  },
  {
    // The code viewer's highlighter worker (shiki, grammars and themes as its own chunks), which
    // lime-code-viewer starts from beside itself (highlight-worker.mjs). Alone, so no chunk it
    // imports is shared with page code that expects a DOM.
    entries: { [HIGHLIGHT_WORKER]: highlightWorkerSource },
    strings: [],
  },
];
export const cdnEntries = Object.assign({}, ...cdnGroups.map((g) => g.entries));

/**
 * Applies package.json `sideEffects` to our own sources, as a consumer's bundler would: a source
 * module is side-effect free unless listed, so registering one element does not drag the other
 * widgets in through define.ts. (node-resolve applies each dependency's own field.)
 */
function ownSideEffects() {
  const pkg = JSON.parse(readFileSync(path.join(projectRoot, 'package.json'), 'utf8'));
  const patterns = pkg.sideEffects || [];
  // `./src/x.ts` names a file; a pattern without a slash (`*.css.ts`) matches file names.
  const listed = patterns.filter((p) => p.startsWith('./src/')).map((p) => path.join(projectRoot, p));
  const suffixes = patterns.filter((p) => !p.includes('/') && p.startsWith('*')).map((p) => p.slice(1));
  const src = path.join(projectRoot, 'src') + path.sep;
  const entries = new Set(Object.values(cdnEntries));
  return (id) => {
    if (!id.startsWith(src)) return null; // let node-resolve / other plugins decide
    return entries.has(id) || listed.includes(id) || suffixes.some((suffix) => id.endsWith(suffix));
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
  // Keyed by vanilla-extract's file name for the CSS (`Name.css.ts.vanilla.css`, not on disk).
  // Not a \0 id: Rollup leaves \0 modules out of source maps, and the size report
  // (check-sizes --why) reads the maps to tell CSS from code.
  const cssById = new Map();
  return {
    name: 'lime-adoptable-css',
    async resolveId(source, importer, options) {
      if (!source.includes('.vanilla.css')) return null;
      const resolved = await this.resolve(source, importer, { ...options, skipSelf: true });
      const css = resolved?.meta?.css;
      if (typeof css !== 'string') return null;
      cssById.set(resolved.id, css);
      return { id: resolved.id, external: false, moduleSideEffects: true };
    },
    async load(id) {
      if (!cssById.has(id)) return null;
      const { code } = await esbuildTransform(cssById.get(id), { loader: 'css', minify: true, target });
      const js = `import { registerStyles } from ${JSON.stringify(stylesModule)};\nregisterStyles(${JSON.stringify(code.trim())});\n`;
      return { code: js, map: new MagicString(js).generateMap({ source: id, hires: true }) };
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
        this.error(
          `${path.relative(projectRoot, info.id)} must not be in the CDN bundles (${hit}). Imported via:\n  ${chain.join('\n  <- ')}`,
        );
      }
    },
  };
}

/**
 * The element definitions (src/web-components/definitions/) carry the documentation the
 * manifest and docs are generated from; at run time only names, types and flags matter. Drop
 * the documentation properties from the bundles instead of splitting the one source in two.
 */
function stripDefinitionDocs() {
  const files = [path.join(webComponents, 'definitions.ts'), path.join(webComponents, 'definitions') + path.sep];
  const docKeys = new Set(['description', 'default', 'typeText', 'values', 'detail', 'returns', 'parameters', 'cssProperties']);
  return {
    name: 'lime-strip-definition-docs',
    transform(code, id) {
      if (!files.some((f) => (f.endsWith(path.sep) ? id.startsWith(f) : id === f))) return null;
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

/**
 * Inside an embed the theme is set on `:host` (embed.css.ts) and the wrapper gives every widget
 * the theme `inherit`, for which `useThemeClass()` returns ''. Its module imports both theme
 * classes' CSS, though; in the script-tag bundles it is replaced by an equivalent
 * (src/web-components/embedThemeClass.ts) that keeps those two unused stylesheets out.
 */
function embedThemeClass() {
  const original = path.join(projectRoot, 'src/config/useThemeClass.ts');
  const replacement = path.join(webComponents, 'embedThemeClass.ts');
  return {
    name: 'lime-embed-theme-class',
    async resolveId(source, importer, options) {
      if (!source.includes('useThemeClass')) return null;
      const resolved = await this.resolve(source, importer, { ...options, skipSelf: true });
      return resolved?.id === original ? replacement : null;
    },
  };
}

/**
 * The bundles render in the browser only, never in a server prerender, so they take
 * @xstate/store's createStore as is: src/internal/createStore.ts only keeps a Next.js prerender
 * free of Math.random() (docs/frameworks.md), which costs the search's budget bytes for nothing.
 */
const clientOnlyStores = { find: /^\.\.\/internal\/createStore$/, replacement: '@xstate/store' };

const reactToPreact = [
  { find: /^prop-types$/, replacement: path.join(projectRoot, 'scripts/rollup/prop-types-stub.mjs') },
  { find: /^react$/, replacement: 'preact/compat' },
  { find: /^react-dom$/, replacement: 'preact/compat' },
  { find: /^react-dom\/client$/, replacement: 'preact/compat/client' },
  { find: /^react\/jsx-runtime$/, replacement: 'preact/compat/jsx-runtime' },
  { find: /^react\/jsx-dev-runtime$/, replacement: 'preact/compat/jsx-dev-runtime' },
  // preact/compat ships useSyncExternalStore; the shim's own copy would only add bytes.
  { find: /^use-sync-external-store\/shim$/, replacement: 'preact/compat' },
  { find: /^use-sync-external-store\/shim\/index\.js$/, replacement: 'preact/compat' },
];

/**
 * DOMPurify (about 10 kB gzip) serves one purpose in the embeds: `htmlToText` (catalogue/text.ts)
 * turns a service description into plain text for the search results, which React renders as
 * text. Without DOMPurify (`isSupported` false) text.ts takes its DOM-free path (`stripHtml`,
 * and `sanitizeDescriptionHtml` escapes everything), which is just as safe for text output.
 * The script-tag bundles get this stand-in, and a purifier.ts that never loads it; the npm
 * package keeps the real DOMPurify.
 */
function withoutDompurify() {
  const id = '\0lime-no-dompurify';
  // The module that loads DOMPurify on demand (src/catalogue/purifier.ts) has nothing to load.
  const purifier = path.join(projectRoot, 'src/catalogue/purifier.ts');
  const noPurifier = '\0lime-no-purifier';
  return {
    name: 'lime-no-dompurify',
    async resolveId(source, importer, options) {
      if (source === 'dompurify') return id;
      if (!source.endsWith('purifier') || !importer) return null;
      const resolved = await this.resolve(source, importer, { ...options, skipSelf: true });
      return resolved?.id === purifier ? noPurifier : null;
    },
    load(loaded) {
      if (loaded === id) return 'export default { isSupported: false };\n';
      if (loaded === noPurifier) {
        return 'export const peekPurifier = () => null;\nexport const setPurifier = () => {};\nexport const loadPurifier = () => Promise.resolve(null);\n';
      }
      return null;
    },
  };
}

/**
 * The strings table (src/config/strings/index.ts) holds every widget's texts, so each bundle
 * would carry all of them. A group's bundles get only the groups their widgets read; the others
 * are empty objects (a `strings` override for them is ignored, as for any unknown key). A widget
 * reading a dropped group would show `undefined`, which the e2e tests would catch.
 */
function onlyStrings(groups) {
  const dir = path.join(projectRoot, 'src/config/strings') + path.sep;
  const PREFIX = '\0lime-no-strings:';
  return {
    name: 'lime-only-strings',
    async resolveId(source, importer, options) {
      if (!importer?.startsWith(dir)) return null;
      const resolved = await this.resolve(source, importer, { ...options, skipSelf: true });
      if (!resolved || !resolved.id.startsWith(dir)) return null;
      const group = path.basename(resolved.id, '.ts');
      if (group === 'index' || groups.includes(group)) return null;
      return PREFIX + resolved.id;
    },
    load(id) {
      if (!id.startsWith(PREFIX)) return null;
      const names = [...readFileSync(id.slice(PREFIX.length), 'utf8').matchAll(/^export const (\w+)/gm)].map((m) => m[1]);
      return names.map((name) => `export const ${name} = {};`).join('\n');
    },
  };
}

/**
 * auth-js's client constructs its admin API (needs a service key, never used from a browser)
 * and its passkey API, and its Web3 sign-in carries an Ethereum message builder; the sign-in
 * overlay uses none of them. The script-tag bundles get stand-ins for those three modules
 * (about 5.5 kB gzip): constructible empty classes, and functions that throw if ever called.
 * Every other part of @supabase/auth-js is used unmodified. A stand-in lacking a name auth-js
 * imports fails the build, so an auth-js update cannot break this silently.
 */
function trimAuthJs() {
  const dir = `${path.sep}node_modules${path.sep}@supabase${path.sep}auth-js${path.sep}dist${path.sep}module${path.sep}`;
  const stubbed = {
    [`${dir}GoTrueAdminApi.js`]: 'admin API',
    [`${dir}lib${path.sep}webauthn.js`]: 'passkeys (WebAuthn)',
    [`${dir}lib${path.sep}web3${path.sep}ethereum.js`]: 'Web3 sign-in',
  };
  const PREFIX = '\0lime-auth-js-stub:';
  const stubFor = (id) => Object.entries(stubbed).find(([suffix]) => id.endsWith(suffix))?.[1];
  return {
    name: 'lime-trim-auth-js',
    async resolveId(source, importer, options) {
      if (!importer?.includes(dir) || importer.startsWith(PREFIX)) return null;
      const resolved = await this.resolve(source, importer, { ...options, skipSelf: true });
      return resolved && stubFor(resolved.id) ? PREFIX + resolved.id : null;
    },
    load(id) {
      if (!id.startsWith(PREFIX)) return null;
      const file = id.slice(PREFIX.length);
      const source = readFileSync(file, 'utf8');
      const what = stubFor(file);
      const lines = [
        `const unavailable = (name) => function () { throw new Error(\`\${name}: ${what} is not part of the Limelight script-tag bundle\`); };`,
      ];
      if (/^export default class/m.test(source)) lines.push('export default class Unavailable {}');
      const names = new Set([
        ...[...source.matchAll(/^export (?:async )?(?:function|const|class|let) (\w+)/gm)].map((m) => m[1]),
        ...[...source.matchAll(/^export \{([^}]*)\}/gm)].flatMap((m) =>
          m[1]
            .split(',')
            .map((n) =>
              n
                .trim()
                .split(/\s+as\s+/)
                .pop(),
            )
            .filter(Boolean),
        ),
      ]);
      for (const name of names) {
        if (/^[A-Z]/.test(name)) lines.push(`export class ${name} {}`);
        else if (name === 'browserSupportsWebAuthn') lines.push(`export const ${name} = () => false;`);
        else lines.push(`export const ${name} = unavailable(${JSON.stringify(name)});`);
      }
      return lines.join('\n');
    },
  };
}

/** Empties dist/cdn before writing, so stale chunks never linger beside the new ones. */
function cleanOutput() {
  return {
    name: 'lime-clean-cdn',
    renderStart(options) {
      if (options.dir) rmSync(options.dir, { recursive: true, force: true });
    },
  };
}

/** One rollup build of a group of entries. */
function groupBuild(group, index) {
  return {
    input: group.entries,
    treeshake: { moduleSideEffects: ownSideEffectsOr(true) },
    plugins: [
      // The groups write to the same directory; the first build empties it.
      ...(index === 0 ? [cleanOutput()] : []),
      forbidModules([
        /node_modules\/@supabase\/(supabase-js|postgrest-js|realtime-js|storage-js|functions-js)\//,
        /node_modules\/react-dom\//,
        /node_modules\/react\//,
        /node_modules\/dompurify\//,
      ]),
      alias({ entries: [...reactToPreact, clientOnlyStores, ...sourceAliases()] }),
      embedThemeClass(),
      withoutDompurify(),
      onlyStrings(group.strings),
      trimAuthJs(),
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
      highlightWorkerUrl({ fileName: `${HIGHLIGHT_WORKER}.js` }),
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
      // The chunk a group's bundles share (preact, the wrapper layer, the platform config) is
      // named `runtime`; others keep the name of their first module.
      chunkFileNames: (chunk) =>
        chunk.moduleIds.some((id) => id.includes('/node_modules/preact/')) ? 'chunks/runtime-[hash].js' : 'chunks/[name]-[hash].js',
      // Fewer, larger shared chunks: fewer requests for a page that loads one bundle.
      experimentalMinChunkSize: 4000,
      // The profile client is what the sign-in overlay loads after a sign-in (terms check).
      // Merged into the shared HTTP chunk it would ride along with every search bundle, so it
      // keeps a chunk of its own, fetched only when imported; the HTTP layer it needs stays
      // with the runtime.
      // The sign-in buttons' provider logos load beside the settings request; merged into the
      // runtime they would ride along with the search bundle too.
      manualChunks: (id) =>
        id.endsWith('/src/api/profile.ts')
          ? 'profile-client'
          : id.endsWith('/src/components/AuthDialog/providerMarks.ts')
            ? 'provider-marks'
            : /\/src\/api\/(http|result|errors)\.ts$|\/node_modules\/(ofetch|ufo|destr)\//.test(id)
              ? 'api-http'
              : undefined,
      // Maps beside the files, not referenced from them (browsers never fetch them);
      // `node scripts/check-sizes.mjs --why <bundle>` reads them to say what the bytes are.
      sourcemap: 'hidden',
      generatedCode: 'es2015',
    },
    onwarn(warning, warn) {
      // Libraries' "use client" directives mean nothing in a browser bundle.
      if (warning.code === 'MODULE_LEVEL_DIRECTIVE') return;
      // auth-js's webauthn modules import each other; harmless.
      if (warning.code === 'CIRCULAR_DEPENDENCY' && warning.ids?.every((id) => id.includes('node_modules'))) return;
      warn(warning);
    },
  };
}

/** @type {import('rollup').RollupOptions[]} */
export default cdnGroups.map(groupBuild);
