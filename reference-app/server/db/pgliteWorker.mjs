// The PGlite worker thread (db/pgliteThread.ts starts it): PGlite runs its WebAssembly Postgres
// synchronously, so in the server's own thread every query stalled the event loop (500 SSE
// streams: loop delay p99 0.7-0.9 s). Here it has a thread of its own; the main thread sends
// statements and gets rows back, already parsed. Plain JavaScript, so that it starts under plain
// `node` in development and tests (no TypeScript loader in a worker) as in the bundle, where
// scripts/build-server.mjs writes it beside main.mjs.
//
// Messages in:  { type: 'query', id, sql, params } | { type: 'close' }
// Messages out: { type: 'ready', wasmModule? } | { type: 'result', id, rows, affectedRows, command }
//               | { type: 'error', id, error } | { type: 'notify', channel, payload }
import { parentPort, workerData } from 'node:worker_threads';
import { mkdirSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { PGlite } from '@electric-sql/pglite';

// Both drivers hand back the same JS types (db/connect.ts): int8 and numeric as numbers,
// dates as 'YYYY-MM-DD' strings, timestamps as Date.
const OID = { int8: 20, numeric: 1700, date: 1082 };
const toNumber = (value) => Number(value);
const identity = (value) => value;

/** An error as plain data: structured clone keeps only an Error's message, not PostgreSQL's fields (code, detail, constraint…). */
function serializeError(error) {
  if (!(error instanceof Error)) return { message: String(error), fields: {} };
  const fields = {};
  for (const [key, value] of Object.entries(error)) {
    // The statement's parameters stay here: they may be large, and the caller has them.
    if (key === 'params' || key === 'queryOptions') continue;
    if (value === undefined || ['string', 'number', 'boolean'].includes(typeof value)) fields[key] = value;
  }
  return { name: error.name, message: error.message, stack: error.stack, database: 'length' in error, fields };
}

/**
 * The buffers of bytea values, moved to the main thread instead of copied. Only a buffer a
 * value owns whole: a view into a larger one (PGlite's WebAssembly memory) must be copied.
 */
function transferablesOf(rows) {
  const buffers = new Set();
  for (const row of rows) {
    for (const value of Object.values(row)) {
      if (
        value instanceof Uint8Array &&
        value.byteOffset === 0 &&
        value.byteLength === value.buffer.byteLength &&
        value.buffer instanceof ArrayBuffer
      ) {
        buffers.add(value.buffer);
      }
    }
  }
  return [...buffers];
}

const { dataDir, relaxedDurability, wasmModule } = workerData;
if (dataDir) mkdirSync(dataDir, { recursive: true });
let pg;
/**
 * PGlite's Postgres, compiled: the one an earlier thread of this process compiled when the main
 * thread has it (db/pgliteThread.ts), else compiled here, as PGlite would, and sent back with
 * 'ready'. V8 shares a module's compiled and optimised code between the threads that use it, so
 * a later thread skips most of a start's cost (about 1.2 CPU-s instead of 3.1 per start).
 */
let pgliteWasm = wasmModule;
try {
  pgliteWasm ??= await WebAssembly.compile(await readFile(new URL('./pglite.wasm', import.meta.resolve('@electric-sql/pglite'))));
  pg = await PGlite.create({
    ...(dataDir ? { dataDir } : {}),
    relaxedDurability,
    pgliteWasmModule: pgliteWasm,
    parsers: { [OID.int8]: toNumber, [OID.numeric]: toNumber, [OID.date]: identity },
  });
} catch (error) {
  parentPort.postMessage({ type: 'failed', error: serializeError(error) });
  process.exit(1);
}

pg.onNotification((channel, payload) => parentPort.postMessage({ type: 'notify', channel, payload }));

parentPort.on('message', async (message) => {
  if (message.type === 'close') {
    await pg.close().catch(() => {});
    process.exit(0);
  }
  if (message.type !== 'query') return;
  const { id, sql, params } = message;
  // PGlite queues statements itself (one backend), in the order they came.
  try {
    const result = await pg.query(sql, params);
    const reply = { type: 'result', id, rows: result.rows, affectedRows: result.affectedRows, command: result.command };
    parentPort.postMessage(reply, transferablesOf(result.rows));
  } catch (error) {
    parentPort.postMessage({ type: 'error', id, error: serializeError(error) });
  }
});

parentPort.postMessage({ type: 'ready', wasmModule: wasmModule ? undefined : pgliteWasm });
