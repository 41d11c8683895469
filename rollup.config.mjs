// Two builds from one source: the npm library (ESM per module, static CSS, types) and the
// script-tag bundles for third-party pages (dist/cdn).
import libraryBuild from './scripts/rollup/lib.mjs';
import cdnBuild from './scripts/rollup/cdn.mjs';

export default (args) => {
  // `rollup -c --only cdn` / `--only lib` builds one half.
  const only = args.only;
  delete args.only;
  if (only === 'lib') return libraryBuild;
  if (only === 'cdn') return cdnBuild;
  return [...libraryBuild, ...cdnBuild];
};
