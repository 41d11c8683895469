// The Python package's copy of the platform's rules: sdk/python/limelight/_rules.py, generated
// from @limelight/rules (packages/rules) and checked in, so a price or a limit changes in one
// place (docs/architecture.md, "Where the rules live"). Every exported constant that is plain
// data becomes a Python constant of the same name (lists as tuples, object keys in snake_case as
// the wire spells them, Infinity as math.inf); functions stay TypeScript's. A unit test fails
// when the checked-in file is stale (test/unit/foundation/python-rules.test.ts).
//   node scripts/python-rules.mjs           write sdk/python/limelight/_rules.py
//   node scripts/python-rules.mjs --check   exit 1 when it differs from what would be written
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { projectRoot } from './source-aliases.mjs';

export const RULES_SOURCES = path.join(projectRoot, 'packages/rules/src');
export const PYTHON_RULES = path.join(projectRoot, 'sdk/python/limelight/_rules.py');

/** Python's literal types named after a TypeScript union of one list's strings. */
const LITERAL_TYPES = { JobStatus: 'JOB_STATUSES' };

const snake = (key) => key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/** One value as a Python literal at `indent`; collections one item a line, as Ruff formats them. */
function literal(value, indent) {
  const inner = ' '.repeat(indent + 4);
  const close = ' '.repeat(indent);
  if (value === null) return 'None';
  if (typeof value === 'boolean') return value ? 'True' : 'False';
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number') {
    if (value === Number.POSITIVE_INFINITY) return 'math.inf';
    if (!Number.isFinite(value)) throw new Error(`no Python literal for ${value}`);
    return String(value);
  }
  if (Array.isArray(value)) {
    if (value.length === 0) return '()';
    return `(\n${value.map((item) => `${inner}${literal(item, indent + 4)},\n`).join('')}${close})`;
  }
  if (typeof value === 'object') {
    const entries = Object.entries(value);
    if (entries.length === 0) return '{}';
    return `{\n${entries.map(([key, item]) => `${inner}"${snake(key)}": ${literal(item, indent + 4)},\n`).join('')}${close}}`;
  }
  throw new Error(`no Python literal for a ${typeof value}`);
}

/** The doc comment above `export const NAME` in the rules' sources, on one line. */
function docComments() {
  const docs = new Map();
  for (const file of readdirSync(RULES_SOURCES).filter((name) => name.endsWith('.ts') && name !== 'index.ts')) {
    const text = readFileSync(path.join(RULES_SOURCES, file), 'utf8');
    for (const [, doc, name] of text.matchAll(/\/\*\*((?:(?!\*\/)[\s\S])*)\*\/\s*export const (\w+)/g)) {
      docs.set(
        name,
        doc
          .split('\n')
          .map((line) => line.replace(/^\s*\*?\s?/, '').trim())
          .filter(Boolean)
          .join(' '),
      );
    }
  }
  return docs;
}

/** The text of limelight/_rules.py for the rules module `rules` (its exports by name). */
export function pythonRules(rules) {
  const docs = docComments();
  const names = Object.keys(rules)
    .filter((name) => typeof rules[name] !== 'function')
    .sort();
  const body = names.map((name) => {
    const doc = docs.get(name);
    return `${doc ? `#: ${doc}\n` : ''}${name} = ${literal(rules[name], 0)}\n`;
  });
  const types = Object.entries(LITERAL_TYPES).map(
    ([type, list]) => `#: One of ${list}.\n${type} = Literal[${rules[list].map((s) => JSON.stringify(s)).join(', ')}]\n`,
  );
  const usesInf = body.some((text) => text.includes('math.inf'));
  return [
    '"""The platform\'s rules (prices, GPU offers, limits, defaults, statuses), generated from\n' +
      '@limelight/rules (packages/rules) by scripts/python-rules.mjs: do not edit, change them there and\n' +
      'run the script (docs/architecture.md, "Where the rules live")."""\n',
    `${usesInf ? 'import math\n' : ''}from typing import Literal\n`,
    ...types,
    ...body,
  ].join('\n');
}

/** The rules module, loaded from its TypeScript sources. */
export async function loadRules() {
  const { tsImport } = await import('tsx/esm/api');
  return tsImport(pathToFileURL(path.join(RULES_SOURCES, 'index.ts')).href, import.meta.url);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const text = pythonRules(await loadRules());
  if (process.argv.includes('--check')) {
    let current = '';
    try {
      current = readFileSync(PYTHON_RULES, 'utf8');
    } catch {
      // missing: stale
    }
    if (current !== text) {
      console.error(`${path.relative(projectRoot, PYTHON_RULES)} is stale: run node scripts/python-rules.mjs`);
      process.exit(1);
    }
    console.log(`${path.relative(projectRoot, PYTHON_RULES)} is up to date`);
  } else {
    writeFileSync(PYTHON_RULES, text);
    console.log(`wrote ${path.relative(projectRoot, PYTHON_RULES)}`);
  }
}
