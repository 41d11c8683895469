// Folder-level import cycles of the platform server (issue 48; docs/architecture.md, "Server
// layers"), part of the `cycles` step of npm test beside dependency-cruiser's file-level check.
// Each folder of reference-app/server (hosting/, jobs/, …) is one node, and each file at its root
// (platform.ts, errors.ts, …) one node of its own; a file of folder A importing a file of folder B
// is an edge A → B (type-only imports count, as in .dependency-cruiser.mjs). The folders must form
// layers: any loop fails, printed folder by folder with one import that makes each edge.
//
// ALLOWED is empty: no edge closes a loop (the last four were cut in issue 48, item 1, by moving
// the /v1 assembly to v1/, the settings any module reads to config/core.ts, the recorded examples
// to media/, and by handing hosting the queue's log webhooks from platform.ts). It stays for a
// loop that must be lived with for a while: an entry (`from -> to`, with why) is left out before
// looking for loops, so only a new loop fails, and an entry that matches no edge any more fails
// too (the edge is gone, so its line must go). The fix for a loop is in docs/architecture.md:
// move what both folders need below them, or pass it in from platform.ts.
//   node scripts/folder-cycles.mjs            check (the folders of reference-app/server)
//   node scripts/folder-cycles.mjs --graph    also print every folder edge
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const SERVER = 'reference-app/server';

/**
 * Edges still allowed to close a loop: `from -> to`, `*` for any folder. Cut one, delete its line.
 * @type {{ edge: string, why: string }[]}
 */
export const ALLOWED = [];

/** The node of a path under the server: its first folder (`hosting/`) or, at the root, the file. */
export function nodeOf(file, root = SERVER) {
  const prefix = `${root}/`;
  if (!file.startsWith(prefix)) return undefined;
  const rest = file.slice(prefix.length);
  const slash = rest.indexOf('/');
  return slash < 0 ? rest : rest.slice(0, slash + 1);
}

/**
 * Folder edges of dependency-cruiser's modules (`{ source, dependencies: [{ resolved }] }`):
 * `Map<"A -> B", string[]>`, each with the file imports that make it.
 */
export function folderEdges(modules, root = SERVER) {
  const edges = new Map();
  for (const module of modules) {
    const from = nodeOf(module.source, root);
    if (!from) continue;
    for (const dependency of module.dependencies ?? []) {
      const to = nodeOf(dependency.resolved, root);
      if (!to || to === from) continue;
      const key = `${from} -> ${to}`;
      if (!edges.has(key)) edges.set(key, []);
      edges.get(key).push(`${module.source.slice(root.length + 1)} → ${dependency.resolved.slice(root.length + 1)}`);
    }
  }
  return edges;
}

const matches = (allowed, key) => {
  const [a, b] = allowed.split(' -> ');
  const [from, to] = key.split(' -> ');
  return (a === '*' || a === from) && (b === '*' || b === to);
};

/**
 * The loops left once the allowed edges are set aside: for each strongly connected group of
 * folders, one loop through it (Tarjan, then a walk back to the start), edge by edge.
 */
export function folderCycles(edges, allowed = ALLOWED) {
  const kept = [...edges.keys()].filter((key) => !allowed.some(({ edge }) => matches(edge, key)));
  const next = new Map();
  for (const key of kept) {
    const [from, to] = key.split(' -> ');
    if (!next.has(from)) next.set(from, []);
    if (!next.has(to)) next.set(to, []);
    next.get(from).push(to);
  }
  for (const targets of next.values()) targets.sort();
  let counter = 0;
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const groups = [];
  const visit = (node) => {
    index.set(node, counter);
    low.set(node, counter++);
    stack.push(node);
    onStack.add(node);
    for (const to of next.get(node)) {
      if (!index.has(to)) {
        visit(to);
        low.set(node, Math.min(low.get(node), low.get(to)));
      } else if (onStack.has(to)) low.set(node, Math.min(low.get(node), index.get(to)));
    }
    if (low.get(node) !== index.get(node)) return;
    const group = [];
    let member;
    do {
      member = stack.pop();
      onStack.delete(member);
      group.push(member);
    } while (member !== node);
    if (group.length > 1) groups.push(group.sort());
  };
  for (const node of [...next.keys()].sort()) if (!index.has(node)) visit(node);
  return groups.map((group) => loopThrough(group, next));
}

/** A shortest loop from the group's first folder back to itself, staying inside the group. */
function loopThrough(group, next) {
  const inGroup = new Set(group);
  const start = group[0];
  const previous = new Map();
  const queue = [start];
  while (queue.length > 0) {
    const node = queue.shift();
    for (const to of next.get(node).filter((to) => inGroup.has(to))) {
      if (to === start) {
        const loop = [node];
        while (loop[0] !== start) loop.unshift(previous.get(loop[0]));
        return { folders: group, loop: [...loop, start] };
      }
      if (!previous.has(to)) {
        previous.set(to, node);
        queue.push(to);
      }
    }
  }
  return { folders: group, loop: [start] };
}

/** Each allowed entry with the folder edges of the graph it sets aside (`from -> to`, sorted). */
export const setAside = (edges, allowed = ALLOWED) =>
  allowed.map(({ edge }) => ({ edge, edges: [...edges.keys()].filter((key) => matches(edge, key)).sort() }));

/** Allowed entries that match no edge of the graph any more. */
export const staleAllowed = (edges, allowed = ALLOWED) =>
  allowed.filter(({ edge }) => ![...edges.keys()].some((key) => matches(edge, key)));

/** The report: the loops with one import per edge, and stale allowed entries; empty when all is well. */
export function report(edges, allowed = ALLOWED) {
  const lines = [];
  for (const { folders, loop } of folderCycles(edges, allowed)) {
    lines.push(`Folder cycle through ${folders.length} folders (${folders.join(', ')}):`, `  ${loop.join(' → ')}`);
    for (let i = 0; i + 1 < loop.length; i++) {
      const imports = edges.get(`${loop[i]} -> ${loop[i + 1]}`);
      lines.push(`    ${loop[i]} → ${loop[i + 1]}: ${imports[0]}${imports.length > 1 ? ` (and ${imports.length - 1} more)` : ''}`);
    }
  }
  if (lines.length > 0)
    lines.push('Move what both folders need below them, or pass it in from platform.ts (docs/architecture.md, "Server layers").');
  for (const { edge } of staleAllowed(edges, allowed))
    lines.push(`No import makes the allowed edge "${edge}" any more: delete its entry from ALLOWED in scripts/folder-cycles.mjs.`);
  return lines;
}

/** dependency-cruiser's modules of the server, with the file-level check's settings. */
export function cruise() {
  const bin = path.join(projectRoot, 'node_modules/dependency-cruiser/bin/dependency-cruise.mjs');
  const args = [bin, '--config', '.dependency-cruiser.mjs', '--output-type', 'json', SERVER];
  const result = spawnSync(process.execPath, args, { cwd: projectRoot, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  if (result.status !== 0) throw new Error(`dependency-cruiser failed (${result.status}): ${result.stderr}`);
  return JSON.parse(result.stdout).modules;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const edges = folderEdges(cruise());
  if (process.argv.includes('--graph')) for (const [key, imports] of [...edges].sort()) console.log(`${key} (${imports.length})`);
  const problems = report(edges);
  if (problems.length > 0) {
    console.error(problems.join('\n'));
    process.exit(1);
  }
  const aside = setAside(edges);
  console.log(
    `No folder-level cycle in ${SERVER} (${edges.size} folder edges)${aside.length > 0 ? ', once ALLOWED sets these aside:' : '.'}`,
  );
  for (const { edge, edges: matched } of aside)
    console.log(`  ${edge}: ${matched.map((key) => key.split(' -> ')[edge.startsWith('*') ? 0 : 1]).join(', ')}`);
}
