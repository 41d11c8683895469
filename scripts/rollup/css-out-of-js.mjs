// The npm build's CSS delivery (docs/frameworks.md, "Styles"). vanilla-extract leaves an
// `import './Name.vanilla.css'` in each `Name.css.js`; Node cannot load a `.css` file, so any
// component entry imported by a test, an SSR render or a script threw ERR_UNKNOWN_FILE_EXTENSION.
// This plugin takes those imports out of the JavaScript and writes, per export entry, one
// stylesheet with every rule its modules (static and lazy) use:
//
//   dist/styles.css                     everything (written by build-lib.mjs)
//   dist/styles/<entry>.css             one entry, e.g. @limelight/widgets/styles/service-search.css
//
// The per-element web-component entries (`web-components/standalone/lime-*.js`) need their CSS
// inside shadow roots instead: each gets a sibling `lime-*.styles.js` registering its CSS text as
// a constructable stylesheet (src/web-components/styles.ts), imported first by the entry.
import path from 'node:path';

const CSS_IMPORT = /^import\s*['"](\.{1,2}\/[^'"]+\.css)['"];?[ \t]*$/gm;

/** Stylesheet order: the theme contract and themes first (variables before use), then by path, as dist/styles.css. */
export const cssOrder = (a, b) => Number(b.includes('theme/')) - Number(a.includes('theme/')) || a.localeCompare(b);

/**
 * @param {{ entries: Map<string, string>, elementEntry: (fileName: string) => boolean, stylesModule: string }} options
 *   entries: entry source file -> stylesheet name (`service-search`), for entries that get one;
 *   elementEntry: whether an output file is a per-element web-component entry;
 *   stylesModule: output file name of src/web-components/styles.ts.
 */
export function cssOutOfJs({ entries, elementEntry, stylesModule }) {
  return {
    name: 'lime-css-out-of-js',
    generateBundle(_options, bundle) {
      // 1. Each chunk's CSS imports, removed from its code (the line stays, so source maps hold).
      const ownCss = new Map();
      for (const chunk of Object.values(bundle)) {
        if (chunk.type !== 'chunk') continue;
        const css = [];
        chunk.code = chunk.code.replace(CSS_IMPORT, (_line, spec) => {
          css.push(path.posix.join(path.posix.dirname(chunk.fileName), spec));
          return '';
        });
        ownCss.set(chunk.fileName, css);
      }
      // 2. Every entry's stylesheet: the CSS of all modules it reaches, lazily loaded ones included.
      const closure = (fileName, seen = new Set()) => {
        if (seen.has(fileName) || !bundle[fileName]) return seen;
        seen.add(fileName);
        for (const next of [...bundle[fileName].imports, ...bundle[fileName].dynamicImports]) closure(next, seen);
        return seen;
      };
      const cssOf = (chunk) => {
        const files = new Set([...closure(chunk.fileName)].flatMap((f) => ownCss.get(f) ?? []));
        return [...files].sort(cssOrder).map((file) => {
          const asset = bundle[file];
          if (!asset || asset.type !== 'asset') this.error(`${chunk.fileName} imports ${file}, which the build did not emit`);
          return String(asset.source);
        });
      };
      for (const chunk of Object.values(bundle)) {
        if (chunk.type !== 'chunk' || !chunk.isEntry) continue;
        const name = entries.get(chunk.facadeModuleId);
        if (name) {
          const css = cssOf(chunk);
          if (css.length === 0) continue;
          this.emitFile({ type: 'asset', fileName: `styles/${name}.css`, source: css.join('\n') });
          // For TypeScript: `import '@limelight/widgets/styles/x.css'` resolves (noUncheckedSideEffectImports).
          this.emitFile({ type: 'asset', fileName: `styles/${name}.css.d.ts`, source: 'export {};\n' });
        } else if (elementEntry(chunk.fileName)) {
          const stylesFile = chunk.fileName.replace(/\.js$/, '.styles.js');
          let registry = path.posix.relative(path.posix.dirname(stylesFile), stylesModule);
          if (!registry.startsWith('.')) registry = `./${registry}`;
          const source = `import { registerStyles } from ${JSON.stringify(registry)};\nregisterStyles(${JSON.stringify(cssOf(chunk).join('\n'))});\n`;
          this.emitFile({ type: 'asset', fileName: stylesFile, source });
          // Prepended on the first line, so the source map's lines still match.
          chunk.code = `import ${JSON.stringify(`./${path.posix.basename(stylesFile)}`)};${chunk.code}`;
        }
      }
    },
  };
}
