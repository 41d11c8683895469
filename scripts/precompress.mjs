// Writes a brotli (.br) and a gzip (.gz) copy beside every compressible file of a build, so the
// server sends compressed bytes without compressing per request (docs/deploy.md, "Compression").
// Used by the reference app's Vite build; also runs on its own: node scripts/precompress.mjs dist/app
import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';

// Source maps are left out: only developer tools load them, and they are the slowest to compress.
const COMPRESSIBLE = /\.(html|js|mjs|css|json|svg|txt|xml|wasm|webmanifest)$/i;
/** Files below this are sent as they are (the server applies the same floor). */
const MIN_BYTES = 1024;

const brotli = promisify(brotliCompress);
const gz = promisify(gzip);

async function* files(dir) {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* files(full);
    else yield full;
  }
}

/** Compresses every eligible file under `dir`; returns how many files and bytes before/after. */
export async function precompress(dir) {
  const totals = { files: 0, bytes: 0, br: 0, gzip: 0 };
  const jobs = [];
  for await (const file of files(dir)) {
    if (!COMPRESSIBLE.test(file)) continue;
    if ((await stat(file)).size < MIN_BYTES) continue;
    jobs.push(
      (async () => {
        const body = await readFile(file);
        const [br, gzipped] = await Promise.all([
          brotli(body, {
            params: {
              [constants.BROTLI_PARAM_QUALITY]: 11,
              [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
              [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
            },
          }),
          gz(body, { level: 9 }),
        ]);
        await Promise.all([writeFile(`${file}.br`, br), writeFile(`${file}.gz`, gzipped)]);
        totals.files += 1;
        totals.bytes += body.length;
        totals.br += br.length;
        totals.gzip += gzipped.length;
      })(),
    );
  }
  await Promise.all(jobs);
  return totals;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const dir = process.argv[2];
  if (!dir) {
    console.error('usage: node scripts/precompress.mjs <directory>');
    process.exit(2);
  }
  const t = await precompress(path.resolve(dir));
  console.log(`precompressed ${t.files} files: ${t.bytes} bytes -> ${t.br} (br), ${t.gzip} (gzip)`);
}
