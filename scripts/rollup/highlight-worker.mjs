// The code highlighter runs in a Web Worker (src/code/highlightWorker.ts; docs/architecture.md,
// "Code highlighting off the main thread"). Its page side starts it with
//
//   new Worker(new URL('./highlightWorker.ts', import.meta.url), { type: 'module' })
//
// which Vite understands as is. Rollup does not bundle workers, so the rollup builds build the
// worker as an entry of its own and this plugin points that URL at the built file, relative to
// whichever chunk the page side lands in: `./highlightWorker.js` beside it in the npm package
// (where consumers' bundlers see the same `new Worker(new URL(...))` form), `../lime-code-
// highlighter.js` from dist/cdn/chunks in the script-tag bundles.
import path from 'node:path';
import MagicString from 'magic-string';
import { projectRoot } from '../source-aliases.mjs';

export const highlightWorkerSource = path.join(projectRoot, 'src/code/highlightWorker.ts');
const pageSide = path.join(projectRoot, 'src/code/workerHighlighter.ts');
const SOURCE_URL = /(['"`])\.\/highlightWorker\.ts\1/;
const PLACEHOLDER = '__LIME_HIGHLIGHT_WORKER_URL__';

/** @param {{ fileName: string }} options the worker's built file, relative to the output directory */
export function highlightWorkerUrl({ fileName }) {
  return {
    name: 'lime-highlight-worker-url',
    transform(code, id) {
      if (id !== pageSide) return null;
      const match = SOURCE_URL.exec(code);
      if (!match)
        this.error(
          `${path.relative(projectRoot, id)} no longer starts './highlightWorker.ts'; update ${path.relative(projectRoot, import.meta.filename)}`,
        );
      const out = new MagicString(code);
      out.overwrite(match.index, match.index + match[0].length, JSON.stringify(PLACEHOLDER));
      return { code: out.toString(), map: out.generateMap({ hires: true }) };
    },
    renderChunk(code, chunk) {
      if (!code.includes(PLACEHOLDER)) return null;
      let relative = path.posix.relative(path.posix.dirname(chunk.fileName), fileName);
      if (!relative.startsWith('.')) relative = `./${relative}`;
      const out = new MagicString(code);
      for (let at = code.indexOf(PLACEHOLDER); at !== -1; at = code.indexOf(PLACEHOLDER, at + 1)) {
        out.overwrite(at, at + PLACEHOLDER.length, relative);
      }
      return { code: out.toString(), map: out.generateMap({ hires: true }) };
    },
  };
}
