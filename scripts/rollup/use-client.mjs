// Marks the npm build's client modules with "use client" (docs/frameworks.md, "Next.js").
//
// React Server Components treat a module as client code only below a file that starts with the
// directive; without it, a Server Component page importing ServiceSearch failed with
// "createContext only works in Client Components". Rollup drops module-level directives from
// sources, so the mark is added to the built files here, decided from the graph rather than listed:
//
// - every built module whose imports reach React (components, providers, hooks, and hooks built
//   only on other hooks) is marked, as Radix and MUI mark each component file. The build keeps
//   one file per source module (preserveModules, lib.mjs), so a React-free module is never
//   merged into a marked one;
// - each component entry that reaches React is marked as a whole (helpers it re-exports beside
//   the component included), so a Server Component page hands the whole entry to the client;
// - an entry that re-exports React-free code beside hooks (`/catalogue`, `/auth`, the root
//   barrel) stays unmarked: its React modules are marked on their own, so a Server Component can
//   call the catalogue engine (searchModels, formatRuns, servicePath) and still render
//   CatalogueProvider as a client reference. Entries that never reach React (`/api`, `/pricing`)
//   stay unmarked too.
const REACT = /^react(-dom)?(\/|$)/;

/**
 * @param {{ isComponentEntry: (chunk: import('rollup').OutputChunk) => boolean,
 *   markable: (chunk: import('rollup').OutputChunk) => boolean }} options `isComponentEntry`: the
 *   package's component entries; `markable`: which built modules may carry the directive (lib.mjs
 *   leaves out the custom elements' own modules and says why)
 */
export function markClientModules({ isComponentEntry, markable }) {
  return {
    name: 'lime-use-client',
    generateBundle(_options, bundle) {
      const chunkOf = (fileName) => (bundle[fileName]?.type === 'chunk' ? bundle[fileName] : undefined);

      const reachesReact = new Map();
      const reaches = (fileName) => {
        if (REACT.test(fileName)) return true;
        const chunk = chunkOf(fileName);
        if (!chunk) return false;
        if (reachesReact.has(fileName)) return reachesReact.get(fileName);
        reachesReact.set(fileName, false); // cycles
        const result = chunk.imports.some(reaches);
        reachesReact.set(fileName, result);
        return result;
      };
      const marked = [];
      for (const chunk of Object.values(bundle)) {
        if (chunk.type !== 'chunk' || !markable(chunk)) continue;
        // Entries other than the components are barrels that may mix engine and hooks: their
        // modules carry the directive, not they.
        if (!reaches(chunk.fileName) || (chunk.isEntry && !isComponentEntry(chunk))) continue;
        prependDirective(bundle, chunk);
        marked.push(chunk.fileName);
      }
      if (marked.length === 0) this.error('no module imports React: the "use client" marking cannot be right');
    },
  };
}

function prependDirective(bundle, chunk) {
  chunk.code = `"use client";\n${chunk.code}`;
  // One line more at the top: shift the source map by one generated line.
  const mapAsset = bundle[`${chunk.fileName}.map`];
  if (mapAsset?.type === 'asset') {
    const map = JSON.parse(String(mapAsset.source));
    map.mappings = `;${map.mappings}`;
    mapAsset.source = JSON.stringify(map);
  }
}
