// The public API report: for every entry of package.json `exports`, the names it exports and
// their signatures, one file per entry in api-report/ (one file each, so branches that add
// entries in parallel do not collide). `npm run api-report` rewrites the files; `--check`
// (run by scripts/check-package.mjs in `npm test`) fails when they differ from the sources,
// so a change to the public surface shows up in review as a diff of these files.
// Every exported name must carry a doc comment (TSDoc on its declaration, or on a one-name
// re-export in the entry, for a type another package declares): both modes fail and list the
// names without one. Entries under `./headless/` are marked experimental (docs/api-surface.md).
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { projectRoot } from './source-aliases.mjs';
import { isDocumented } from './api-docs.mjs';

const reportDir = path.join(projectRoot, 'api-report');
const pkg = JSON.parse(readFileSync(path.join(projectRoot, 'package.json'), 'utf8'));

/** Entry name -> source file, with the patterns (`./theme/*`, `./web-components/*`) expanded to the files they match. */
function entries() {
  const out = [];
  for (const [key, target] of Object.entries(pkg.exports)) {
    const source = typeof target === 'object' ? target.source : undefined;
    if (!source) continue;
    if (!key.includes('*')) {
      out.push({ name: key, file: path.join(projectRoot, source) });
      continue;
    }
    const [prefix, suffix] = source.split('*');
    // `./src/theme/*.ts` lists a folder; `./src/web-components/standalone/lime-*.ts` part of one.
    const dir = path.join(projectRoot, prefix.endsWith('/') ? prefix : path.dirname(prefix));
    for (const file of readdirSync(dir).sort()) {
      const full = path.join(dir, file);
      const rel = `./${path.relative(projectRoot, full)}`;
      if (!rel.startsWith(prefix) || !rel.endsWith(suffix)) continue;
      out.push({ name: key.replace('*', rel.slice(prefix.length, rel.length - suffix.length)), file: full });
    }
  }
  return out;
}

function compilerOptions() {
  const configFile = path.join(projectRoot, 'tsconfig.json');
  const { config } = ts.readConfigFile(configFile, ts.sys.readFile);
  return ts.parseJsonConfigFileContent(config, ts.sys, projectRoot).options;
}

const flags = ts.TypeFormatFlags.NoTruncation;
const printer = ts.createPrinter({ removeComments: true });
// Types named outside their scope print as import("<absolute path>"): made relative to the
// repository so the report is the same in every checkout.
const rootPattern = new RegExp(`import\\("${projectRoot.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/`, 'g');
const oneLine = (text) => text.replace(/\s+/g, ' ').replace(rootPattern, 'import("').trim();

/** A type or interface declaration as written, without comments: the shape a consumer sees. */
function declarationText(node) {
  return oneLine(printer.printNode(ts.EmitHint.Unspecified, node, node.getSourceFile()));
}

function describe(checker, symbol) {
  const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
  const decl = target.declarations?.[0];
  const lines = [];
  const name = symbol.getName();
  if (target.flags & ts.SymbolFlags.Class) {
    const type = checker.getTypeOfSymbol(target);
    for (const signature of type.getConstructSignatures())
      lines.push(`class ${name} ${oneLine(checker.signatureToString(signature, undefined, flags))}`);
    const instance = checker.getDeclaredTypeOfSymbol(target);
    for (const member of checker.getPropertiesOfType(instance)) {
      const memberDecl = member.declarations?.[0];
      const modifiers = memberDecl ? ts.getCombinedModifierFlags(memberDecl) : 0;
      if (modifiers & (ts.ModifierFlags.Private | ts.ModifierFlags.Protected) || member.getName().startsWith('#')) continue;
      lines.push(`  ${member.getName()}: ${oneLine(checker.typeToString(checker.getTypeOfSymbol(member), undefined, flags))}`);
    }
    return lines;
  }
  if (target.flags & (ts.SymbolFlags.Interface | ts.SymbolFlags.TypeAlias)) {
    for (const d of target.declarations ?? []) lines.push(declarationText(d));
  }
  if (target.flags & ts.SymbolFlags.Function) {
    const type = checker.getTypeOfSymbol(target);
    for (const signature of type.getCallSignatures())
      lines.push(`function ${name}${oneLine(checker.signatureToString(signature, undefined, flags))}`);
  } else if (target.flags & (ts.SymbolFlags.Variable | ts.SymbolFlags.Enum)) {
    lines.push(`const ${name}: ${oneLine(checker.typeToString(checker.getTypeOfSymbol(target), decl, flags))}`);
  }
  if (lines.length === 0) lines.push(`${name}`);
  return lines;
}

const isExperimental = (entryName) => entryName.startsWith('./headless/');

function report() {
  const list = entries();
  const program = ts.createProgram(
    list.map((e) => e.file),
    compilerOptions(),
  );
  const checker = program.getTypeChecker();
  const files = new Map();
  const undocumented = [];
  for (const entry of list) {
    const source = program.getSourceFile(entry.file);
    const moduleSymbol = source && checker.getSymbolAtLocation(source);
    const exported = moduleSymbol ? checker.getExportsOfModule(moduleSymbol) : [];
    const names = exported.map((s) => s.getName()).sort();
    const byName = new Map(exported.map((s) => [s.getName(), s]));
    for (const name of names) if (!isDocumented(checker, byName.get(name))) undocumented.push(`${entry.name} ${name}`);
    const body = names.flatMap((name) => [`### ${name}`, '', '```ts', ...describe(checker, byName.get(name)), '```', '']);
    const title = entry.name === '.' ? '@limelight/widgets' : `@limelight/widgets/${entry.name.slice(2)}`;
    const text = [
      `# ${title}`,
      '',
      `Generated by \`npm run api-report\` from \`${path.relative(projectRoot, entry.file)}\`; do not edit.`,
      '',
      ...(isExperimental(entry.name) ? ['**Experimental**: may change in any minor release (docs/api-surface.md).', ''] : []),
      `${names.length} exports.`,
      '',
      ...body,
    ].join('\n');
    files.set(`${entry.name === '.' ? 'index' : entry.name.slice(2).replace(/\//g, '.')}.api.md`, text);
  }
  return { files, undocumented };
}

/**
 * At most this many exported names across all entries (docs/api-surface.md). Back to 350 since
 * theme/controls.css exports its four form controls as one object (`formControls`).
 */
const MAX_EXPORTED_NAMES = 350;
const check = process.argv.includes('--check');
const counts = process.argv.includes('--counts');
const { files, undocumented } = report();
/** Fails (after writing, in write mode) when an exported name has no doc comment. */
function requireDocs() {
  if (undocumented.length === 0) return;
  console.error(`Exported names without a doc comment (add TSDoc to each declaration):\n  ${undocumented.join('\n  ')}`);
  process.exit(1);
}

if (counts) {
  for (const [file, text] of files) console.log(`${file.replace(/\.api\.md$/, '')}\t${/^(\d+) exports\.$/m.exec(text)[1]}`);
} else if (check) {
  const problems = [];
  const present = existsSync(reportDir) ? readdirSync(reportDir).filter((f) => f.endsWith('.api.md')) : [];
  for (const [file, text] of files) {
    const current = existsSync(path.join(reportDir, file)) ? readFileSync(path.join(reportDir, file), 'utf8') : null;
    if (current === null) problems.push(`${file}: missing`);
    else if (current !== text) problems.push(`${file}: differs from the sources`);
  }
  for (const file of present) if (!files.has(file)) problems.push(`${file}: no such entry in package.json exports`);
  if (problems.length) {
    console.error(`API report out of date (run \`npm run api-report\` and review the diff):\n  ${problems.join('\n  ')}`);
    process.exit(1);
  }
  requireDocs();
  const total = [...files.values()].reduce((sum, text) => sum + Number(/^(\d+) exports\.$/m.exec(text)[1]), 0);
  // The surface we promise to keep stable has a ceiling (docs/api-surface.md): a new public name
  // has to replace one, or go behind an experimental /headless entry.
  if (total > MAX_EXPORTED_NAMES) {
    console.error(`The package exports ${total} names, over its ceiling of ${MAX_EXPORTED_NAMES} (docs/api-surface.md).`);
    process.exit(1);
  }
  console.log(`API report: ${files.size} entries (${total} exported names) match the sources, every name documented.`);
} else {
  rmSync(reportDir, { recursive: true, force: true });
  mkdirSync(reportDir, { recursive: true });
  for (const [file, text] of files) writeFileSync(path.join(reportDir, file), text);
  console.log(`API report: wrote ${files.size} files to api-report/.`);
  requireDocs();
}
