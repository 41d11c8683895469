import http from 'node:http';

// The jobs bench's load, shared by its runs, graphile-worker's and the node:http floor (httpFloor.ts), so all
// send the same requests the same way. It is node:http with a keep-alive agent, not fetch: in the
// bench's process (which is also the server) undici's fetch cost about 0.5 ms of CPU per request,
// a third of what one job cost the server, and would have been counted as the server's
// (docs/jobs.md: speed).

const agent = new http.Agent({ keepAlive: true, maxSockets: 16 });

/** A request with a bearer token (and a JSON body when given); answers once the headers are in. */
export function request(url: URL, token: string, method: string, body?: string) {
  return new Promise<http.IncomingMessage>((resolve, reject) => {
    const headers: http.OutgoingHttpHeaders = { Authorization: `Bearer ${token}` };
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    const req = http.request(url, { method, headers, agent }, resolve);
    req.on('error', reject);
    req.end(body);
  });
}

export async function textOf(response: http.IncomingMessage): Promise<string> {
  let text = '';
  response.setEncoding('utf8');
  for await (const chunk of response) text += chunk;
  return text;
}

/** Calls `send(0)` … `send(count - 1)`, `concurrency` at a time (the bench's "10 at a time"). */
export async function atATime(count: number, concurrency: number, send: (index: number) => Promise<unknown>) {
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < count) await send(next++);
    }),
  );
}
