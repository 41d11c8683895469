// Size budgets of the script-tag bundles (dist/cdn), measured on the built files.
//
// For each entry the cost is what a page loading that one script downloads before the element
// works: the entry plus every chunk it imports statically (transitively), each gzipped on its
// own as a server would send it, JavaScript plus CSS (the CSS ships inside the JavaScript as
// constructable-stylesheet text; any .css file an entry references would be counted too).
// Dynamically imported chunks (loaded on demand) are listed apart and not counted.
//
// Budgets (issue 6): lime-service-search <= 39 kB, what Algolia DocSearch 3.9's script-tag
// build weighs (35.8 kB JS + 3.1 kB CSS); lime-auth-dialog <= 60 kB, under the Supabase client
// alone. 1 kB = 1000 bytes, gzip at zlib's default level (6): both err on the strict side.
//
// Usage: node scripts/check-sizes.mjs [--json]   (exits 1 when a bundle is over budget)
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const cdn = path.join(root, 'dist/cdn');

/** Budget in bytes per entry; entries without one are reported only. */
export const budgets = {
  'lime-service-search': 39_000,
  'lime-auth-dialog': 60_000,
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
  const entries = readdirSync(cdn).filter((f) => f.endsWith('.js')).sort();
  return entries.map((name) => {
    const entry = name.replace(/\.js$/, '');
    const { statics, dynamics } = closure(path.join(cdn, name));
    const js = statics.filter((f) => f.endsWith('.js')).reduce((n, f) => n + gz(f), 0);
    const css = statics.filter((f) => f.endsWith('.css')).reduce((n, f) => n + gz(f), 0);
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

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
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
    const line = (cells) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ').trimEnd();
    console.log(line(header));
    for (const row of table) console.log(line(row));
  }
  const missing = Object.keys(budgets).filter((entry) => !rows.some((r) => r.entry === entry));
  const over = rows.filter((r) => r.budget !== null && r.total > r.budget);
  for (const entry of missing) console.error(`missing bundle: dist/cdn/${entry}.js`);
  for (const r of over) console.error(`${r.entry}: ${kb(r.total)} is over its budget of ${kb(r.budget)} by ${kb(r.total - r.budget)}`);
  process.exit(missing.length > 0 || over.length > 0 ? 1 : 0);
}
