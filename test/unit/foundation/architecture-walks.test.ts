import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// docs/architecture.md's walks ("Six requests, end to end") name the file of every hop and the
// functions, types and constants on the way. Files and functions move; this keeps the page true
// (issue 36, item 4). The convention the page states:
//
// - a code span holding a path (a `/` or a file extension) names a file: from the repository's
//   root, else from reference-app/ or reference-app/server/, else (a bare name) in the folder of
//   a file the same walk named before it;
// - a code span holding a camelCase or PascalCase identifier (`createApiKey`, `JobService.create`)
//   or a call (`conflict()`, `jobs.create(...)`) names a function, type or constant, defined
//   (declared, or a method or property) in one of the files the walk names;
// - anything else in code (a route, a header, SQL, a table or event name: `api_keys`, `changed`)
//   is not checked;
// - "Files opened: N on the main path (…), M with …" lists the files, and N and M count them.

const ROOT = path.resolve(import.meta.dirname, '../../..');
const DOC = readFileSync(path.join(ROOT, 'docs/architecture.md'), 'utf8');
const BASES = ['', 'reference-app/', 'reference-app/server/'];

/** The walks: each ### heading of the section, its numbered steps and its "Files opened" line. */
function walks() {
  const section = DOC.split(/^## \w+ requests, end to end$/m)[1]?.split(/^## /m)[0] ?? '';
  return section
    .split(/^### /m)
    .slice(1)
    .map((text) => {
      const [title, ...lines] = text.split('\n');
      const body = lines.join('\n');
      const steps = body
        .split(/^(?=\d+\. )/m)
        .filter((step) => /^\d+\. /.test(step))
        .map((step) => step.split(/^Files opened:/m)[0]!);
      const opened = `Files opened:${body.split(/^Files opened:/m)[1]?.split('\n\n')[0] ?? ''}`;
      return { title: title!.replace(/"/g, ''), steps, opened };
    });
}

const spans = (text: string) => [...text.matchAll(/`([^`]+)`/g)].map((m) => m[1]!);
const isPath = (span: string) => /^[\w@.-]+(\/[\w@.-]+)*\.(tsx?|mjs|js|json|md|py)$/.test(span) || /^[\w.-]+\/[\w./-]*\/?$/.test(span);
const IDENTIFIER = /^([A-Za-z_$][\w$]*)(?:\.([A-Za-z_$][\w$]*))?(?:\(.*\))?$/;

/** Resolves a cited path to a file or folder of the repository, trying the bases and the walk's folders. */
function resolve(span: string, folders: string[]): string | undefined {
  const candidates = [...BASES.map((base) => base + span), ...folders.map((folder) => path.posix.join(folder, span))];
  return candidates.find((candidate) => existsSync(path.join(ROOT, candidate)));
}

/**
 * The names a code span cites: `camelCase`, `PascalCase`, `Owner.member` (both checked), a call
 * `name()` or `object.method(...)` (the function or method). All-lower-case words without a call
 * are SQL, table, event and state names (`api_keys`, `changed`), not checked.
 */
function symbolsOf(span: string): string[] {
  const match = IDENTIFIER.exec(span);
  if (!match) return [];
  const [, owner, member] = match as unknown as [string, string, string | undefined];
  const call = span.endsWith(')');
  if (member) return /^[A-Z]/.test(owner) ? [owner, member] : call || /[A-Z]/.test(member) ? [member] : [];
  return call || /[A-Z]/.test(owner) ? [owner] : [];
}

function escape(name: string) {
  return name.replace(/\$/g, '\\$');
}

/**
 * Whether `source` declares `name` (or lists it in an export), or has it as a method; as a
 * property too unless the walk calls it (`name()`), where only a function will do.
 */
function defines(source: string, name: string, called: boolean): boolean {
  const n = escape(name);
  return [
    // At the start of a line: a module's own declarations, not a local variable.
    new RegExp(`^(export\\s+)?(default\\s+)?(async\\s+)?(abstract\\s+)?(function\\*?|const|let|class|interface|type|enum)\\s+${n}\\b`, 'm'),
    new RegExp(`^\\s*(export\\s+)?(async\\s+)?(static\\s+)?${n}\\s*[(<]`, 'm'),
    // A function of a factory or hook that returns it: `function subscribe(`, `const save = useCallback(`.
    new RegExp(`^\\s*(async\\s+)?function\\*?\\s+${n}\\b|^\\s*const\\s+${n}\\s*=\\s*use(Callback|Memo)\\(`, 'm'),
    new RegExp(`\\b${n}\\s*[:=]\\s*(async\\s*)?(\\(|function\\b|\\w+\\s*=>)`),
    new RegExp(`export\\s*(type\\s*)?\\{[^}]*\\b${n}\\b[^}]*\\}`),
    ...(called ? [] : [new RegExp(`^\\s*(readonly\\s+)?${n}\\??\\s*:`, 'm')]),
    // Python (the CLI and limelight.serve walks): a def or a class.
    new RegExp(`^\\s*(async\\s+)?def\\s+${n}\\b|^class\\s+${n}\\b`, 'm'),
  ].some((pattern) => pattern.test(source));
}

describe.each(walks())('docs/architecture.md, walk "$title"', ({ steps, opened }) => {
  /** Every file the walk names, in order, with its steps, so bare names resolve to a folder seen before. */
  const citedSoFar: string[] = [];
  const cited = steps.map((step) => {
    const files: string[] = [];
    const missing: string[] = [];
    for (const span of spans(step).filter(isPath)) {
      const file = resolve(span, [...citedSoFar, ...files].map((f) => path.posix.dirname(f)).reverse());
      if (file) files.push(file);
      else missing.push(span);
    }
    citedSoFar.push(...files);
    return { step, files, missing };
  });

  it('has steps that name files', () => {
    expect(steps.length).toBeGreaterThan(2);
    for (const { files } of cited) expect(files.length).toBeGreaterThan(0);
  });

  it('names files that exist', () => {
    expect(cited.flatMap(({ missing }) => missing)).toEqual([]);
  });

  it('names symbols defined in the files it names', () => {
    const sources = cited
      .flatMap(({ files }) => files)
      .filter((file) => /\.(tsx?|mjs|js|py)$/.test(file))
      .map((file) => readFileSync(path.join(ROOT, file), 'utf8'));
    const missing = cited
      .flatMap(({ step }) => spans(step).filter((span) => !isPath(span)))
      .filter((span) => symbolsOf(span).some((name) => !sources.some((source) => defines(source, name, span.endsWith(')')))));
    expect(missing).toEqual([]);
  });

  it('counts the files it lists as opened, each one cited by the walk', () => {
    const counts = /^Files opened: (\d+) on the main path \(([\s\S]*?)\), (\d+) with ([\s\S]*?)\.$/.exec(
      opened.replace(/\s+/g, ' ').trim(),
    );
    expect(counts, opened).not.toBeNull();
    const [, main, mainList, all, sideList] = counts!;
    const mainFiles = spans(mainList!);
    const sideFiles = spans(sideList!);
    expect(mainFiles.length).toBe(Number(main));
    expect(mainFiles.length + sideFiles.length).toBe(Number(all));
    const citedFiles = cited.flatMap(({ files }) => files);
    const unknown = [...mainFiles, ...sideFiles].filter((name) => !citedFiles.some((file) => file === name || file.endsWith(`/${name}`)));
    expect(unknown).toEqual([]);
  });
});
