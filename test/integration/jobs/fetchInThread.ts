import { Worker } from 'node:worker_threads';

// The loop-delay tests watch this process's event loop, where the platform server runs. The
// client's own work (encoding a 24 MB multipart body, reading a 45 MB download) would stall
// that loop too and be blamed on the server, so the client runs in a worker thread of its own.

export interface ThreadRequest {
  url: string;
  method?: string;
  headers?: Record<string, string>;
  /** A multipart body with one file field of `size` bytes of 'a'. */
  upload?: { field: string; filename: string; type: string; size: number };
}

export interface ThreadAnswer {
  status: number;
  /** Bytes read from the answer's body. */
  size: number;
  /** The body parsed as JSON when it is JSON (small answers only), else null. */
  json: unknown;
}

const CLIENT = `
const { parentPort, workerData: r } = require('node:worker_threads');
(async () => {
  let body;
  if (r.upload) {
    body = new FormData();
    body.append(r.upload.field, new Blob([Buffer.alloc(r.upload.size, 'a')], { type: r.upload.type }), r.upload.filename);
  }
  const response = await fetch(r.url, { method: r.method ?? 'GET', headers: r.headers, body });
  const chunks = [];
  let size = 0;
  for await (const chunk of response.body) {
    size += chunk.byteLength;
    if (size <= 1 << 20) chunks.push(chunk);
  }
  let json = null;
  if (size <= 1 << 20 && (response.headers.get('content-type') ?? '').includes('json')) json = JSON.parse(Buffer.concat(chunks).toString('utf8'));
  parentPort.postMessage({ status: response.status, size, json });
})().catch((error) => parentPort.postMessage({ error: String(error && error.stack || error) }));
`;

/** Makes one HTTP request from a worker thread and answers its status, size and small JSON body. */
export function fetchInThread(request: ThreadRequest): Promise<ThreadAnswer> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(CLIENT, { eval: true, workerData: request });
    worker.once('message', (message: ThreadAnswer | { error: string }) => {
      void worker.terminate();
      if ('error' in message) reject(new Error(message.error));
      else resolve(message);
    });
    worker.once('error', reject);
  });
}
