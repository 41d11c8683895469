// Attribute minified bytes of an entry's static closure to packages via sourcemaps; gzip share estimated proportionally.
import { rollup } from 'rollup';
import { gzipSync } from 'node:zlib';
import { TraceMap, originalPositionFor } from '@jridgewell/trace-mapping';
import cfgs from './rollup/cdn.mjs';
const cfg = cfgs[Number(process.env.GROUP ?? 0)];
const want = process.env.ENTRY;
const bundle = await rollup({ ...cfg, plugins: cfg.plugins.filter((p) => p.name !== 'lime-clean-cdn'), onwarn() {} });
const { output } = await bundle.generate({ ...cfg.output, dir: '/tmp/lime-embeds/analyze', sourcemap: true });
const entry = output.find((c) => c.type === 'chunk' && c.name === want);
const seen = new Set(); const stack = [entry.fileName]; const totals = new Map(); let gzTotal = 0, rawTotal = 0;
const group = (src) => { if (!src) return '(none)'; const s = src.replace(/^(\.\.\/)+/, ''); if (s.includes('node_modules/')) { const p = s.split('node_modules/').pop().split('/'); if (process.env.DETAIL && s.includes(process.env.DETAIL)) return s.split('node_modules/').pop(); return p[0].startsWith('@') ? p[0] + '/' + p[1] : p[0]; } if (s.includes('lime-css')) return 'CSS ' + s.split('src/').pop().split('/').slice(0, 2).join('/'); return s.replace(/.*work\/main\//, '').split('/').slice(0, 3).join('/'); };
while (stack.length) { const f = stack.pop(); if (seen.has(f)) continue; seen.add(f); const c = output.find((o) => o.fileName === f); stack.push(...c.imports);
  const gz = gzipSync(c.code).length; gzTotal += gz; rawTotal += c.code.length;
  const map = new TraceMap(c.map); const lines = c.code.split('\n'); const local = new Map();
  lines.forEach((line, li) => { for (let col = 0; col < line.length; col++) { const pos = originalPositionFor(map, { line: li + 1, column: col }); const g = group(pos.source); local.set(g, (local.get(g) ?? 0) + 1); } });
  for (const [g, n] of local) totals.set(g, (totals.get(g) ?? 0) + (n / c.code.length) * gz);
}
const rows = [...totals].sort((a, b) => b[1] - a[1]);
for (const [g, n] of rows) if (n > 80) console.log(String(Math.round(n)).padStart(7), g);
console.log('total gz', gzTotal, 'raw', rawTotal);
if (process.env.CHUNKS) for (const c of output) if (c.type === 'chunk' && seen.has(c.fileName)) console.log(c.fileName, gzipSync(c.code).length, Object.keys(c.modules).filter((id) => c.modules[id].renderedLength > 0).map((id) => id.replace(/.*node_modules\//, '').replace(/.*work\/main\//, '')).filter((x) => !x.startsWith('preact')).join(' '));
