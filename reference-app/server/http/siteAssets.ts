// The shell of a server-rendered page: the built index.html (dist/app) with the page's own head
// tags, the CSS and scripts of its page module (from the build manifest, so the first paint is
// styled and hydration does not wait for another round trip) and the rendered app in #root.
// Pure text work; siteRenderer.ts reads the files.

/** A chunk in Vite's build manifest (dist/app/.vite/manifest.json). */
export interface ManifestChunk {
  file: string;
  css?: string[];
  imports?: string[];
}
export type Manifest = Record<string, ManifestChunk>;

export interface PageShell {
  /** Everything up to and including the opening tag of #root. */
  prefix: string;
  /** From the closing tag of #root: `data` (the hydration block) goes first. */
  suffix(data: string): string;
}

const ROOT = '<div id="root"></div>';

export class TemplateError extends Error {}

/** The manifest's key of a page module as routes.tsx names it ('./pages/x/XPage.tsx'). */
const manifestKey = (module: string) => `src/${module.replace(/^\.\//, '')}`;

/** The CSS and the scripts the page modules need, beyond what the template links already. */
export function moduleAssets(manifest: Manifest, modules: readonly string[], template: string): { css: string[]; scripts: string[] } {
  const css = new Set<string>();
  const scripts = new Set<string>();
  const seen = new Set<string>();
  const visit = (key: string) => {
    if (seen.has(key)) return;
    seen.add(key);
    const chunk = manifest[key];
    if (!chunk) return;
    scripts.add(chunk.file);
    for (const file of chunk.css ?? []) css.add(file);
    for (const imported of chunk.imports ?? []) visit(imported);
  };
  for (const module of modules) visit(manifestKey(module));
  const linked = (file: string) => template.includes(`/${file}"`);
  return { css: [...css].filter((f) => !linked(f)), scripts: [...scripts].filter((f) => !linked(f)) };
}

// The file names and the class are the build's own (hashed names, a vanilla-extract class):
// nothing in them needs escaping.
export function pageShell(
  template: string,
  page: { head: string; htmlClass: string; css: readonly string[]; scripts: readonly string[] },
): PageShell {
  const at = template.indexOf(ROOT);
  if (at < 0 || !template.includes('</head>')) throw new TemplateError(`index.html has no ${ROOT} or no </head>`);
  const links = [
    ...page.css.map((file) => `<link rel="stylesheet" crossorigin href="/${file}">`),
    ...page.scripts.map((file) => `<link rel="modulepreload" crossorigin href="/${file}">`),
  ];
  const head = template
    .slice(0, at)
    .replace(/<html([^>]*)>/, (_all, attributes: string) => `<html${attributes} class="${page.htmlClass}">`)
    // The page's own title and description replace the site's.
    .replace(/\s*<title>[\s\S]*?<\/title>/, '')
    .replace(/\s*<meta name="description"[^>]*>/, '')
    .replace('</head>', `  ${page.head}\n    ${links.join('\n    ')}\n  </head>`);
  const tail = template.slice(at + ROOT.length);
  return { prefix: `${head}<div id="root">`, suffix: (data) => `</div>${data}${tail}` };
}
