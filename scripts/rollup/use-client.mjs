// Marks the npm build's client modules with "use client" (docs/frameworks.md, "Next.js").
//
// React Server Components treat a module as client code only below a file that starts with the
// directive; without it, a Server Component page importing ServiceSearch failed with
// "createContext only works in Client Components". Rollup drops module-level directives from
// sources, so the mark is added to the built files here, decided from the graph rather than listed:
//
// - each component entry that reaches React is marked as a whole (helpers it re-exports beside
//   the component included), so a Server Component page hands the whole entry to the client;
// - an entry that re-exports React-free code beside hooks (`/catalogue`, `/auth`, `/platform`,
//   `/notifications`, the root barrel) stays unmarked; instead each module it re-exports that
//   reaches React (catalogue/react.js, auth/AuthProvider.js, ...) is marked, as Radix and MUI mark
//   each component file. A Server Component then calls the catalogue engine (searchModels,
//   formatRuns, servicePath) on the server and renders CatalogueProvider as a client reference.
//   The build keeps one file per source module (preserveModules, lib.mjs), so engine code is
//   never merged into a marked file. Entries that never reach React (`/api`, `/run`) stay unmarked.
//
// Only these boundaries are marked, not every React module behind them: whatever a client module
// imports is client code already, and a directive inside a bundle makes Vite warn
// (MODULE_LEVEL_DIRECTIVE) in apps that use the custom elements, which import the components'
// modules directly.
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
      const boundaries = new Set();
      const visited = new Set();
      // From an unmarked barrel, through the barrels it re-exports, to the modules that need React.
      const findBoundaries = (chunk) => {
        if (visited.has(chunk.fileName)) return;
        visited.add(chunk.fileName);
        for (const fileName of chunk.imports) {
          const imported = chunkOf(fileName);
          if (!imported || !reaches(fileName) || !markable(imported)) continue;
          if (isComponentEntry(imported)) continue; // marked as a whole below
          if (imported.isEntry) findBoundaries(imported);
          else boundaries.add(imported);
        }
      };
      const marked = [];
      for (const chunk of Object.values(bundle)) {
        if (chunk.type !== 'chunk' || !chunk.isEntry || !markable(chunk)) continue;
        if (isComponentEntry(chunk)) {
          if (reaches(chunk.fileName)) boundaries.add(chunk);
        } else findBoundaries(chunk);
      }
      for (const chunk of boundaries) {
        prependDirective(bundle, chunk);
        marked.push(chunk.fileName);
      }
      if (marked.length === 0) this.error('no entry reaches React: the "use client" marking cannot be right');
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
