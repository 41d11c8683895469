// Marks the npm build's client entries with "use client" (docs/frameworks.md, "Next.js").
//
// React Server Components treat a module as client code only below a file that starts with the
// directive; without it, a Server Component page importing ServiceSearch failed with
// "createContext only works in Client Components". Rollup drops module-level directives from
// sources, so the mark is added to the built entry files here. Which entries: those whose
// static import graph reaches React, decided from the graph rather than listed, so an entry that
// stays React-free (the API clients, the catalogue engine, the pricing formula) stays usable from
// server code and a new component entry is marked without anyone remembering to.
const REACT = /^react(-dom)?(\/|$)/;

/** @param {{ isEntry: (chunk: import('rollup').OutputChunk) => boolean }} options which entry chunks to consider */
export function markClientEntries({ isEntry }) {
  return {
    name: 'lime-use-client',
    generateBundle(_options, bundle) {
      const reachesReact = new Map();
      const usesReact = (fileName) => {
        if (REACT.test(fileName)) return true;
        const chunk = bundle[fileName];
        if (!chunk || chunk.type !== 'chunk') return false;
        if (reachesReact.has(fileName)) return reachesReact.get(fileName);
        reachesReact.set(fileName, false); // cycles
        const result = chunk.imports.some(usesReact);
        reachesReact.set(fileName, result);
        return result;
      };
      const marked = [];
      for (const chunk of Object.values(bundle)) {
        if (chunk.type !== 'chunk' || !chunk.isEntry || !isEntry(chunk) || !usesReact(chunk.fileName)) continue;
        chunk.code = `"use client";\n${chunk.code}`;
        // One line more at the top: shift the source map by one generated line.
        const mapAsset = bundle[`${chunk.fileName}.map`];
        if (mapAsset?.type === 'asset') {
          const map = JSON.parse(String(mapAsset.source));
          map.mappings = `;${map.mappings}`;
          mapAsset.source = JSON.stringify(map);
        }
        marked.push(chunk.fileName);
      }
      if (marked.length === 0) this.error('no entry reaches React: the "use client" marking cannot be right');
    },
  };
}
