// Writes custom-elements.json (Custom Elements Manifest, schema 2.1) at the repo root from the
// element definitions in src/web-components/definitions.ts (attributes, events, methods) and the
// theme contract (the --lime-* CSS custom properties, their dark defaults, and the doc comments
// of src/theme/tokens.ts). Editors, Storybook and linters read it through package.json
// `customElements`.
//
// It also rewrites the generated tables of docs/embeds.md (between `<!-- generated:<tag> -->`
// markers), so the README snippets list every attribute and event of the same definitions.
//
// Usage: node scripts/custom-elements-manifest.mjs [--check]
//   --check  exits 1 when a file on disk differs from what would be written.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { tsImport } from 'tsx/esm/api';
import ts from 'typescript';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const out = path.join(root, 'custom-elements.json');
const docsFile = path.join(root, 'docs/embeds.md');

const { widgetDefinitions } = await tsImport(path.join(root, 'src/web-components/definitions.ts'), import.meta.url);
const { vars } = await tsImport(path.join(root, 'src/theme/vars.css.ts'), import.meta.url);
const { darkValues, lightValues } = await tsImport(path.join(root, 'src/theme/tokens.ts'), import.meta.url);

/** Doc comments of the ThemeValues members, keyed by `group.token` (and `group`). */
function tokenDocs() {
  const file = path.join(root, 'src/theme/tokens.ts');
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const docs = {};
  const docOf = (node) =>
    ts
      .getJSDocCommentsAndTags(node)
      .map((d) => (typeof d.comment === 'string' ? d.comment : (d.comment ?? []).map((c) => c.text).join('')))
      .join(' ')
      .trim();
  const walk = (type, prefix) => {
    if (!ts.isTypeLiteralNode(type)) return;
    for (const member of type.members) {
      if (!ts.isPropertySignature(member) || !member.name) continue;
      const key = prefix ? `${prefix}.${member.name.getText(source)}` : member.name.getText(source);
      const doc = docOf(member);
      if (doc) docs[key] = doc;
      if (member.type) walk(member.type, key);
    }
  };
  source.forEachChild((node) => {
    if (ts.isTypeAliasDeclaration(node) && node.name.text === 'ThemeValues') walk(node.type, '');
  });
  return docs;
}

function cssProperties() {
  const docs = tokenDocs();
  const props = [];
  for (const [group, tokens] of Object.entries(vars)) {
    for (const [token, reference] of Object.entries(tokens)) {
      const name = /^var\((--[\w-]+)\)$/.exec(reference)?.[1];
      if (!name) throw new Error(`theme contract ${group}.${token} is not a plain custom property: ${reference}`);
      const dark = darkValues[group][token];
      const light = lightValues[group][token];
      const doc = docs[`${group}.${token}`];
      props.push({
        name,
        description: [`Theme token \`${group}.${token}\`${doc ? `: ${doc}` : '.'}`, dark !== light ? `Light theme: \`${light}\`.` : '']
          .filter(Boolean)
          .join(' '),
        ...(group === 'color' && { syntax: '<color>' }),
        default: dark,
      });
    }
  }
  return props;
}

const typeText = (a) =>
  a.typeText ??
  (a.values
    ? a.values.map((v) => `'${v}'`).join(' | ')
    : { string: 'string', boolean: 'boolean', number: 'number', json: 'object' }[a.type]);

const fileBase = (d) => d.className.replace(/^Lime/, '');

function declaration(d, tokens) {
  return {
    kind: 'class',
    name: d.className,
    tagName: d.tag,
    customElement: true,
    description: d.description,
    superclass: { name: 'HTMLElement' },
    attributes: d.attributes.map((a) => ({
      name: a.name,
      description: a.description,
      type: { text: typeText(a) },
      ...(a.default !== undefined && { default: a.default }),
      fieldName: a.property,
    })),
    members: [
      ...d.attributes.map((a) => ({
        kind: 'field',
        name: a.property,
        description: a.description,
        type: { text: `${typeText(a)} | undefined` },
        attribute: a.name,
        reflects: true,
      })),
      ...d.methods.map((m) => ({
        kind: 'method',
        name: m.name,
        description: m.description,
        ...(m.parameters && {
          parameters: m.parameters.map((p) => ({ name: p.name, type: { text: p.type }, description: p.description })),
        }),
        return: { type: { text: m.returns ?? 'void' } },
      })),
    ],
    events: d.events.map((e) => ({
      name: e.name,
      type: { text: `CustomEvent<${e.detail}>` },
      description: `${e.description} Bubbles and is composed${e.cancelable ? '; cancelable' : ''}.`,
    })),
    cssProperties: [...(d.cssProperties ?? []), ...tokens],
  };
}

export function buildManifest() {
  const tokens = cssProperties();
  const modules = [];
  for (const d of widgetDefinitions) {
    const modulePath = `dist/web-components/${fileBase(d)}Element.js`;
    const ref = { name: d.className, module: modulePath };
    modules.push({
      kind: 'javascript-module',
      path: modulePath,
      declarations: [declaration(d, tokens)],
      exports: [{ kind: 'js', name: d.className, declaration: { name: d.className } }],
    });
    modules.push({
      kind: 'javascript-module',
      path: `dist/cdn/${d.bundle}.js`,
      description: `Script-tag bundle: registers <${d.tag}>.`,
      declarations: [],
      exports: [{ kind: 'custom-element-definition', name: d.tag, declaration: ref }],
    });
  }
  modules.push({
    kind: 'javascript-module',
    path: 'dist/web-components/index.js',
    description: '`@limelight/widgets/web-components`: registers every element.',
    declarations: [],
    exports: widgetDefinitions.flatMap((d) => [
      { kind: 'js', name: d.className, declaration: { name: d.className, module: `dist/web-components/${fileBase(d)}Element.js` } },
      {
        kind: 'custom-element-definition',
        name: d.tag,
        declaration: { name: d.className, module: `dist/web-components/${fileBase(d)}Element.js` },
      },
    ]),
  });
  return { schemaVersion: '2.1.0', readme: 'docs/embeds.md', modules };
}

const cell = (text) => String(text).replace(/\|/g, '\\|').replace(/\n/g, ' ');

/** Markdown tables for one element: attributes, events, methods. */
export function docTables(d) {
  const lines = [
    '| Attribute | Property | Type | Default | Description |',
    '| --- | --- | --- | --- | --- |',
    ...d.attributes.map(
      (a) =>
        `| \`${a.name}\` | \`${a.property}\` | \`${cell(typeText(a))}\` | ${a.default === undefined ? '' : cell(a.default)} | ${cell(a.description)} |`,
    ),
    '',
    '| Event | `detail` | Cancelable | Description |',
    '| --- | --- | --- | --- |',
    ...d.events.map((e) => `| \`${e.name}\` | \`${cell(e.detail)}\` | ${e.cancelable ? 'yes' : 'no'} | ${cell(e.description)} |`),
  ];
  if (d.methods.length > 0) {
    lines.push('', '| Method | Description |', '| --- | --- |');
    for (const m of d.methods)
      lines.push(`| \`${m.name}(${(m.parameters ?? []).map((p) => p.name).join(', ')})\` | ${cell(m.description)} |`);
  }
  if (d.cssProperties?.length) {
    lines.push('', '| CSS property | Default | Description |', '| --- | --- | --- |');
    for (const c of d.cssProperties) lines.push(`| \`${c.name}\` | ${cell(c.default ?? '')} | ${cell(c.description)} |`);
  }
  return lines.join('\n');
}

export function renderDocs(markdown) {
  let result = markdown;
  for (const d of widgetDefinitions) {
    const open = `<!-- generated:${d.tag} -->`;
    const close = `<!-- /generated:${d.tag} -->`;
    const start = result.indexOf(open);
    const end = result.indexOf(close);
    if (start < 0 || end < start) throw new Error(`docs/embeds.md lacks the ${open} ... ${close} markers`);
    result = `${result.slice(0, start + open.length)}\n${docTables(d)}\n${result.slice(end)}`;
  }
  return result;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const files = [
    [out, `${JSON.stringify(buildManifest(), null, 2)}\n`],
    [docsFile, renderDocs(readFileSync(docsFile, 'utf8'))],
  ];
  if (process.argv.includes('--check')) {
    const stale = files.filter(([file, text]) => {
      try {
        return readFileSync(file, 'utf8') !== text;
      } catch {
        return true;
      }
    });
    for (const [file] of stale) console.error(`${path.relative(root, file)} is out of date: run node scripts/custom-elements-manifest.mjs`);
    if (stale.length > 0) process.exit(1);
    console.log('custom-elements.json and docs/embeds.md are up to date');
  } else {
    for (const [file, text] of files) writeFileSync(file, text);
    console.log(`custom-elements.json, docs/embeds.md: ${widgetDefinitions.map((d) => `<${d.tag}>`).join(', ')}`);
  }
}
