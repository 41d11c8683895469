// Tests go through the server's public entries (issue 48; docs/testing.md, "Tests and the server's
// entries"), part of the `cycles` step of npm test. A test outside test/unit (integration, e2e,
// their setup and helpers) imports a file of reference-app/server only through an entry:
//   - a file at the server's root (testing.ts, platform.ts, config.ts, log.ts, …), each a module
//     of its own as in scripts/folder-cycles.mjs;
//   - a folder's index.ts, imported as the folder (`reference-app/server/hosting`); a folder without
//     one whose name is also a root file (config/ beside config.ts) has that file as its entry.
// Any other server file is the module's inside. A test that must reach inside says why on the
// line above the import (or at the end of its line):
//   // reaches inside: fault injection of the queue's SQL
// Each import that breaks the rule is printed with the line to write instead.
// test/unit may import the files it unit-tests (docs/testing.md); test/bench times the insides
// on purpose; test/consumers use the packed package only.
//   node scripts/test-imports.mjs            check
//   node scripts/test-imports.mjs --list     also print every import that reaches inside, with its why
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const SERVER = 'reference-app/server';
/** The folders checked (everything under test/ but these). */
export const SKIPPED = ['test/unit', 'test/bench', 'test/consumers', 'test/vendor'];
/** The comment that lets an import reach inside, with its reason. */
export const WHY = /^\/\/\s*reaches inside:\s*(\S.{7,})$/;
const SOURCE = /\.(ts|tsx|mts|mjs|js)$/;

/** The files to check under `root` (relative paths, `/`-separated), SKIPPED left out. */
export function testFiles(root = projectRoot, skipped = SKIPPED) {
  const files = [];
  const walk = (dir) => {
    for (const name of readdirSync(path.join(root, dir)).sort()) {
      const rel = `${dir}/${name}`;
      if (name === 'node_modules' || skipped.includes(rel)) continue;
      if (statSync(path.join(root, rel)).isDirectory()) walk(rel);
      else if (SOURCE.test(name) && !name.endsWith('.d.ts') && !name.endsWith('.d.mts')) files.push(rel);
    }
  };
  walk('test');
  return files;
}

/** The file a relative specifier names (repository-relative), as TypeScript's bundler resolution finds it. */
export function resolveSpecifier(root, fromFile, specifier) {
  if (!specifier.startsWith('.')) return undefined;
  const base = path.join(path.dirname(fromFile), specifier);
  const stripped = base.replace(/\.(js|mjs)$/, '');
  const candidates = [base, `${stripped}.ts`, `${stripped}.tsx`, `${stripped}.mts`, `${base}/index.ts`, `${base}/index.tsx`];
  const found = candidates.find((file) => existsSync(path.join(root, file)) && statSync(path.join(root, file)).isFile());
  return found ? found.split(path.sep).join('/') : undefined;
}

/** The module a server file belongs to: its first folder (`hosting`), or the root file itself (`platform.ts`). */
export const moduleOf = (serverFile) => serverFile.slice(SERVER.length + 1).split('/')[0];

/** Whether a server file is a public entry: a root file, or a folder's own index.ts. */
export function isEntry(serverFile) {
  const rest = serverFile.slice(SERVER.length + 1).split('/');
  return rest.length === 1 || (rest.length === 2 && /^index\.tsx?$/.test(rest[1]));
}

/** The entry of a server file's module (repository-relative), or undefined when it has none. */
export function entryOf(root, serverFile) {
  const folder = moduleOf(serverFile);
  if (!serverFile.slice(SERVER.length + 1).includes('/')) return serverFile;
  for (const file of [`${SERVER}/${folder}/index.ts`, `${SERVER}/${folder}/index.tsx`, `${SERVER}/${folder}.ts`])
    if (existsSync(path.join(root, file))) return file;
  return undefined;
}

/** The names a module exports, following `export * from` inside the repository. */
export function exportsOf(root, file, seen = new Set()) {
  if (seen.has(file)) return new Set();
  seen.add(file);
  const names = new Set();
  const source = ts.createSourceFile(file, readFileSync(path.join(root, file), 'utf8'), ts.ScriptTarget.Latest, true);
  for (const statement of source.statements) {
    if (ts.isExportDeclaration(statement)) {
      if (statement.exportClause && ts.isNamedExports(statement.exportClause))
        for (const element of statement.exportClause.elements) names.add(element.name.text);
      else if (statement.exportClause) names.add(statement.exportClause.name.text);
      else if (statement.moduleSpecifier && ts.isStringLiteral(statement.moduleSpecifier)) {
        const target = resolveSpecifier(root, file, statement.moduleSpecifier.text);
        if (target) for (const name of exportsOf(root, target, seen)) if (name !== 'default') names.add(name);
      }
      continue;
    }
    if (ts.isExportAssignment(statement)) names.add('default');
    const modifiers = ts.canHaveModifiers(statement) ? (ts.getModifiers(statement) ?? []) : [];
    if (!modifiers.some((m) => m.kind === ts.SyntaxKind.ExportKeyword)) continue;
    if (modifiers.some((m) => m.kind === ts.SyntaxKind.DefaultKeyword)) names.add('default');
    else if (ts.isVariableStatement(statement))
      for (const declaration of statement.declarationList.declarations) {
        if (ts.isIdentifier(declaration.name)) names.add(declaration.name.text);
      }
    else if (statement.name && ts.isIdentifier(statement.name)) names.add(statement.name.text);
  }
  return names;
}

/** The line (1-based) of a position. */
const lineOf = (source, position) => source.getLineAndCharacterOfPosition(position).line + 1;

/** The `// reaches inside: why` of a statement: on the line right above it or at the end of its line. */
function whyOf(source, text, statement) {
  const start = statement.getStart(source);
  const leading = ts.getLeadingCommentRanges(text, statement.getFullStart()) ?? [];
  const above = leading.at(-1);
  const candidates = [];
  if (above && lineOf(source, above.end) === lineOf(source, start) - 1) candidates.push(text.slice(above.pos, above.end));
  for (const trailing of ts.getTrailingCommentRanges(text, statement.end) ?? []) candidates.push(text.slice(trailing.pos, trailing.end));
  for (const comment of candidates) {
    const match = WHY.exec(comment.trim());
    if (match) return match[1].trim();
  }
  return undefined;
}

/** The statement a node stands in (a dynamic import's enclosing statement). */
function statementOf(node) {
  let current = node;
  while (current.parent && !ts.isSourceFile(current.parent)) current = current.parent;
  return current;
}

/**
 * The server imports of one test file: `{ file, line, statement, specifier, target, names, why }`
 * for each import, `export … from`, dynamic `import()` and `vi.mock`/`vi.importActual` of a file
 * under reference-app/server.
 */
export function serverImports(root, file, text = readFileSync(path.join(root, file), 'utf8')) {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found = [];
  const add = (node, literal, names) => {
    const target = resolveSpecifier(root, file, literal.text);
    if (!target?.startsWith(`${SERVER}/`)) return;
    const statement = statementOf(node);
    found.push({
      file,
      line: lineOf(source, statement.getStart(source)),
      statement: statement.getText(source).replace(/\s+/g, ' '),
      specifier: literal.text,
      target,
      names,
      why: whyOf(source, text, statement),
    });
  };
  const visit = (node) => {
    if (
      (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) &&
      node.moduleSpecifier &&
      ts.isStringLiteral(node.moduleSpecifier)
    ) {
      const names = [];
      const clause = ts.isImportDeclaration(node) ? node.importClause : undefined;
      if (clause?.name) names.push('default');
      const bindings = clause?.namedBindings ?? (ts.isExportDeclaration(node) ? node.exportClause : undefined);
      if (bindings && (ts.isNamedImports(bindings) || ts.isNamedExports(bindings)))
        for (const element of bindings.elements) names.push((element.propertyName ?? element.name).text);
      add(node, node.moduleSpecifier, names);
    } else if (
      ts.isCallExpression(node) &&
      node.arguments.length > 0 &&
      ts.isStringLiteralLike(node.arguments[0]) &&
      (node.expression.kind === ts.SyntaxKind.ImportKeyword || /^vi\.(mock|doMock|importActual)$/.test(node.expression.getText(source)))
    )
      add(node, node.arguments[0], []);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** The specifier of `entry` as seen from `file`. */
function specifierOf(file, entry) {
  const target = entry.replace(/\/index\.tsx?$/, '').replace(/\.tsx?$/, '');
  const relative = path.posix.relative(path.posix.dirname(file), target);
  return relative.startsWith('.') ? relative : `./${relative}`;
}

/**
 * What is wrong with each import (empty when nothing is): an import of a non-entry without a
 * why, printed with the import to write instead; a why on an import of an entry, which needs none.
 */
export function problemsOf(root, imports) {
  const lines = [];
  const exported = new Map();
  for (const found of imports) {
    const where = `${found.file}:${found.line}`;
    const inside = found.target.slice(SERVER.length + 1);
    if (isEntry(found.target)) {
      if (found.why) lines.push(`${where}: ${inside} is a public entry, so the "reaches inside" comment is not needed: delete it.`);
      continue;
    }
    if (found.why) continue;
    const entry = entryOf(root, found.target);
    lines.push(`${where}: ${found.statement}`);
    lines.push(`  reaches inside ${moduleOf(found.target)}/ (${inside} is no public entry).`);
    if (!entry) {
      lines.push(`  ${moduleOf(found.target)}/ has no entry: add ${SERVER}/${moduleOf(found.target)}/index.ts exporting what tests need,`);
    } else {
      if (!exported.has(entry)) exported.set(entry, exportsOf(root, entry));
      const missing = found.names.filter((name) => !exported.get(entry).has(name));
      const replacement = found.statement.replace(found.specifier, specifierOf(found.file, entry));
      if (missing.length === 0) lines.push(`  Import it from the module's entry instead:`, `    ${replacement}`);
      else
        lines.push(
          `  ${entry.slice(SERVER.length + 1)} does not export ${missing.join(', ')}: export ${missing.length > 1 ? 'them' : 'it'} there if ${missing.length > 1 ? 'they are' : 'it is'} part of what the module offers, then write`,
          `    ${replacement}`,
        );
    }
    lines.push(`  or, if the test must reach inside, say why on the line above the import:`, `    // reaches inside: <why>`);
  }
  if (lines.length > 0) lines.push('Tests use the server\'s public entries (docs/testing.md, "Tests and the server\'s entries").');
  return lines;
}

/** Every server import of every checked test file. */
export const allImports = (root = projectRoot) => testFiles(root).flatMap((file) => serverImports(root, file));

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const imports = allImports();
  const problems = problemsOf(projectRoot, imports);
  if (problems.length > 0) {
    console.error(problems.join('\n'));
    process.exit(1);
  }
  const inside = imports.filter((found) => !isEntry(found.target));
  const files = (list) => new Set(list.map((found) => found.file)).size;
  console.log(
    `Tests import the server through its entries: ${imports.length} imports in ${files(imports)} files; ${inside.length} in ${files(inside)} files reach inside, each saying why.`,
  );
  if (process.argv.includes('--list'))
    for (const found of inside) console.log(`  ${found.file}:${found.line} → ${found.target.slice(SERVER.length + 1)}: ${found.why}`);
}
