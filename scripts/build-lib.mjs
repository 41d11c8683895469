// npm run build:lib: JavaScript and CSS (rollup), declarations (tsc), one combined styles.css
// for pages without a CSS-aware bundler, and the Custom Elements Manifest.
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { tsImport } from 'tsx/esm/api';
import { cssOrder } from './rollup/css-out-of-js.mjs';
import { projectRoot } from './source-aliases.mjs';
import { interfaceName, writeElementTypes } from './web-component-types.mjs';

const dist = path.join(projectRoot, 'dist');
const run = (cmd, args) => execFileSync(cmd, args, { stdio: 'inherit', cwd: projectRoot });

for (const entry of existsSync(dist) ? readdirSync(dist) : []) {
  if (entry !== 'app' && entry !== 'server' && entry !== 'storybook') rmSync(path.join(dist, entry), { recursive: true, force: true });
}
// The job API (src/api/jobs.ts) is @limelight/client: rollup bundles its sources into
// dist/client/ (scripts/rollup/lib.mjs), and the declarations are type-checked against its
// built ones (tsconfig.build.json), so the SDK is built first when its build is missing or older
// than its sources.
const clientDir = path.join(projectRoot, 'packages/client');
const clientTypes = path.join(clientDir, 'dist/index.d.ts');
// The SDK's build carries the platform's rules (dist/rules/), so their sources count too.
const clientInputs = [path.join(clientDir, 'src'), path.join(projectRoot, 'packages/rules/src')];
if (!existsSync(clientTypes) || Math.max(...clientInputs.map(newestMtime)) > statSync(clientTypes).mtimeMs) {
  run('node', ['scripts/build-client.mjs']);
}
run('npx', ['rollup', '-c', '--silent']);
run('npx', ['tsc', '-p', 'tsconfig.build.json']);
bundleClientDeclarations(dist);
addDeclarationExtensions(dist);

function newestMtime(dir) {
  return Math.max(...readdirSync(dir, { recursive: true }).map((name) => statSync(path.join(dir, String(name))).mtimeMs));
}

/**
 * The packed widgets carry the SDK (it is on no registry): its declarations go beside its
 * bundled modules in dist/client/, and a declaration importing `@limelight/client` imports them.
 * So do the platform's rules (@limelight/rules, private): dist/client/rules/ as in the SDK's own
 * build, all of their declarations, for the SDK's rules/index.d.ts names every rules module.
 */
function bundleClientDeclarations(dir) {
  // The declarations of the modules bundled, and of the entry that re-exports them.
  for (const name of readdirSync(path.join(clientDir, 'dist'), { recursive: true }).map(String)) {
    const bundled =
      name === 'index.d.ts' || name.startsWith(`rules${path.sep}`) || existsSync(path.join(dir, 'client', name.replace(/\.d\.ts$/, '.js')));
    if (name.endsWith('.d.ts') && bundled) cpSync(path.join(clientDir, 'dist', name), path.join(dir, 'client', name));
  }
  for (const name of readdirSync(dir, { recursive: true })) {
    const file = path.join(dir, String(name));
    if (!file.endsWith('.d.ts') || file.startsWith(path.join(dir, 'client') + path.sep)) continue;
    const source = readFileSync(file, 'utf8');
    if (!source.includes('@limelight/client') && !source.includes('@limelight/rules')) continue;
    const toModule = (quote, subpath) => {
      const relative = path
        .relative(path.dirname(file), path.join(dir, `client/${subpath ?? 'index'}.js`))
        .split(path.sep)
        .join('/');
      return `${quote}${relative.startsWith('.') ? relative : `./${relative}`}${quote}`;
    };
    writeFileSync(
      file,
      source
        .replace(/(['"])@limelight\/client(?:\/(types))?\1/g, (_, quote, subpath) => toModule(quote, subpath))
        .replace(/(['"])@limelight\/rules\1/g, (_, quote) => toModule(quote, 'rules/index')),
    );
  }
}

// Combined stylesheet: every CSS file rollup emitted, theme contract first so variables are
// defined before use. Order between component files does not matter (class names are unique).
const cssFiles = [];
const walk = (dir) => {
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) {
      // dist/styles/ holds the per-entry stylesheets (css-out-of-js.mjs), subsets of these.
      if (full !== path.join(dist, 'cdn') && full !== path.join(dist, 'styles')) walk(full);
    } else if (name.endsWith('.css') && full !== path.join(dist, 'styles.css')) cssFiles.push(full);
  }
};
walk(dist);
const byOrder = (a, b) => cssOrder(path.relative(dist, a).split(path.sep).join('/'), path.relative(dist, b).split(path.sep).join('/'));
cssFiles.sort(byOrder);
writeFileSync(path.join(dist, 'styles.css'), cssFiles.map((f) => readFileSync(f, 'utf8')).join('\n'));
// `import '@limelight/widgets/styles.css'` type-checks without a bundler's ambient `*.css` module.
writeFileSync(path.join(dist, 'styles.css.d.ts'), 'export {};\n');

// Web components adopt the widget CSS into their shadow roots as a constructable stylesheet, so
// the npm build needs the combined CSS as a string module too (the CDN build inlines its own).
writeFileSync(
  path.join(dist, 'web-components/widget-styles.js'),
  `export const widgetCss = ${JSON.stringify(readFileSync(path.join(dist, 'styles.css'), 'utf8'))};\n`,
);
rmSync(path.join(dist, 'web-components/widget-styles.js.map'), { force: true });

/**
 * Sources import siblings without extensions (bundler resolution); Node's ESM resolution, which
 * TypeScript applies to consumers on `moduleResolution: node16`, needs `./x.js` or
 * `./x/index.js`. Rewrite each relative specifier in the emitted declarations to the file that
 * exists, so the types resolve under every resolution mode.
 */
function addDeclarationExtensions(dir) {
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) {
      // dist/client holds the SDK's declarations as its own package ships them.
      if (name !== 'app' && name !== 'storybook' && name !== 'cdn' && full !== path.join(dist, 'client')) addDeclarationExtensions(full);
      continue;
    }
    if (!name.endsWith('.d.ts')) continue;
    const source = readFileSync(full, 'utf8');
    const rewritten = source.replace(/((?:from|import)\s*\(?\s*['"])(\.{1,2}(?:\/[^'"]*)?)(['"])/g, (match, before, spec, after) => {
      const base = path.resolve(path.dirname(full), spec);
      if (existsSync(`${base}.d.ts`)) return `${before}${spec}.js${after}`;
      if (existsSync(path.join(base, 'index.d.ts'))) return `${before}${spec.replace(/\/$/, '')}/index.js${after}`;
      if (/\.(js|css|json)$/.test(spec)) return match;
      throw new Error(`${path.relative(projectRoot, full)}: cannot resolve declaration import "${spec}"`);
    });
    if (rewritten !== source) writeFileSync(full, rewritten);
  }
}

// Element typings from the definitions (web-component-types.mjs). The web-components entry and
// each per-element entry (`web-components/standalone/lime-*.js`, not compiled by tsc) include them.
const { widgetDefinitions } = await tsImport(path.join(projectRoot, 'src/web-components/definitions.ts'), import.meta.url);
writeElementTypes(widgetDefinitions, path.join(dist, 'web-components'));
const indexTypes = path.join(dist, 'web-components/index.d.ts');
writeFileSync(indexTypes, `${readFileSync(indexTypes, 'utf8')}export type * from './elements.js';\n`);
for (const definition of widgetDefinitions) {
  const file = path.join(dist, `web-components/standalone/${definition.bundle}.d.ts`);
  if (!existsSync(file.replace(/\.d\.ts$/, '.js'))) throw new Error(`no per-element entry for <${definition.tag}>`);
  writeFileSync(
    file,
    `// Importing this module registers <${definition.tag}>.\nexport type { ${interfaceName(definition.tag)} } from '../elements.js';\n`,
  );
}

if (existsSync(path.join(projectRoot, 'scripts/custom-elements-manifest.mjs'))) {
  run('node', ['scripts/custom-elements-manifest.mjs']);
}
console.log(`library built: ${cssFiles.length} stylesheets combined into dist/styles.css`);
