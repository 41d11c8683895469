// Summarises the V8 CPU profiles that `BENCH_CPU_PROF=<dir> npm run bench server` writes
// (docs/deploy.md, "Throughput"): self time by function and by source file, mapped through the
// server bundle's source map to the TypeScript and package files, so the cost per request can be
// read from where it is spent rather than guessed.
//   node test/bench/profileSummary.mjs <dir or .cpuprofile> [--top=25] [--skip-seconds=0] [--callers=text]
// --skip-seconds leaves out the start of each profile (migrations, seeding, first compilation);
// --callers lists the call chains leading to the functions whose name or file contains `text`;
// --inside=text gives the self time of what runs below such a function.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { SourceMap } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const args = process.argv.slice(2);
const option = (name, fallback) => Number(args.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? fallback);
const top = option('top', 25);
const skipMicros = option('skip-seconds', 0) * 1e6;
const callersOf = args.find((a) => a.startsWith('--callers='))?.slice('--callers='.length);
const insideOf = args.find((a) => a.startsWith('--inside='))?.slice('--inside='.length);
const target = args.find((a) => !a.startsWith('--'));
if (!target) {
  console.error('usage: node test/bench/profileSummary.mjs <dir or .cpuprofile> [--top=25] [--skip-seconds=0]');
  process.exit(2);
}
const files = statSync(target).isDirectory()
  ? readdirSync(target)
      .filter((f) => f.endsWith('.cpuprofile'))
      .map((f) => path.join(target, f))
  : [target];

/** Source maps of bundles met in the profile (dist/server/main.mjs has one beside it). */
const maps = new Map();
function sourceMapOf(url) {
  if (!maps.has(url)) {
    let map;
    try {
      const file = url.startsWith('file:') ? fileURLToPath(url) : url;
      map = new SourceMap(JSON.parse(readFileSync(`${file}.map`, 'utf8')));
    } catch {
      map = undefined;
    }
    maps.set(url, map);
  }
  return maps.get(url);
}

/** "function (file:line)" for a profile node, through the source map when there is one. */
function locate({ functionName, url, lineNumber, columnNumber }) {
  const name = functionName || '(anonymous)';
  if (!url) return { name, file: name.startsWith('(') ? name : '(native)' };
  const entry = sourceMapOf(url)?.findEntry(lineNumber, columnNumber);
  if (entry?.originalSource) {
    const file = entry.originalSource.replace(/^.*?(node_modules\/|reference-app\/|src\/)/, '$1');
    return { name: `${entry.name ?? name} (${file}:${entry.originalLine + 1})`, file };
  }
  const file = url.replace(/^file:\/\//, '').replace(/^.*?node_modules\//, 'node_modules/');
  return { name: `${name} (${file}:${lineNumber + 1})`, file };
}

/** A package name or a project folder, for the coarsest view. */
const areaOf = (file) =>
  file.startsWith('node_modules/')
    ? file
        .split('/')
        .slice(1, file.split('/')[1].startsWith('@') ? 3 : 2)
        .join('/')
    : file.startsWith('node:')
      ? 'node: built-ins'
      : file.split('/').slice(0, 3).join('/');

const selfByName = new Map();
const selfByFile = new Map();
const selfByArea = new Map();
const totalByName = new Map();
const chains = new Map();
const inside = new Map();
let total = 0;
const add = (map, key, micros) => map.set(key, (map.get(key) ?? 0) + micros);

for (const file of files) {
  const profile = JSON.parse(readFileSync(file, 'utf8'));
  const parent = new Map();
  for (const n of profile.nodes) for (const child of n.children ?? []) parent.set(child, n.id);
  const located = new Map(profile.nodes.map((n) => [n.id, locate(n.callFrame)]));
  let elapsed = 0;
  profile.samples.forEach((id, i) => {
    const micros = profile.timeDeltas[i] ?? 0;
    elapsed += micros;
    if (elapsed < skipMicros) return;
    const { name, file: source } = located.get(id);
    if (name === '(idle)') return;
    total += micros;
    add(selfByName, name, micros);
    add(selfByFile, source, micros);
    add(selfByArea, areaOf(source), micros);
    // Inclusive time: each function once per sample, however deep the recursion.
    const seen = new Set();
    const stack = [];
    for (let at = id; at !== undefined; at = parent.get(at)) {
      const key = located.get(at).name;
      if (!seen.has(key)) add(totalByName, key, micros);
      seen.add(key);
      stack.push(key);
    }
    if (insideOf && stack.some((frame) => frame.includes(insideOf))) add(inside, name, micros);
    if (callersOf) {
      const from = stack.findIndex((frame) => frame.includes(callersOf));
      if (from >= 0) add(chains, stack.slice(from, from + 12).join('\n      <- '), micros);
    }
  });
}

function table(title, map) {
  console.log(`\n${title}`);
  const rows = [...map].sort((a, b) => b[1] - a[1]).slice(0, top);
  for (const [key, micros] of rows) {
    console.log(`${(micros / 1000).toFixed(0).padStart(8)} ms ${((micros / total) * 100).toFixed(1).padStart(5)} %  ${key}`);
  }
}

console.log(`${files.length} profile(s), ${(total / 1e6).toFixed(1)} s of busy samples (idle left out)`);
table('Self time by area (package or project folder)', selfByArea);
table('Self time by file', selfByFile);
table('Self time by function', selfByName);
table('Total time by function (itself and what it calls)', totalByName);
if (insideOf) table(`Self time below "${insideOf}"`, inside);
if (callersOf) table(`Call chains into "${callersOf}" (time of the samples below them)`, chains);
