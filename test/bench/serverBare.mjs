// The bench's yardstick: a bare node:http server answering each path with exactly the bytes
// and headers the platform server sent (read as JSON from stdin), so the ratio printed by
// test/bench/server.bench.ts isolates the platform's own cost per request.
import { createServer } from 'node:http';

let input = '';
for await (const chunk of process.stdin) input += chunk;
/** @type {Record<string, { status: number; headers: Record<string, string>; body: string }>} */
const routes = JSON.parse(input);
const answers = new Map(
  Object.entries(routes).map(([key, r]) => [key, { status: r.status, headers: r.headers, body: Buffer.from(r.body, 'base64') }]),
);

const server = createServer((req, res) => {
  // Routes are keyed by path plus the credential, as the platform varies its answer by it.
  const answer = answers.get(`${req.url} ${req.headers.authorization ?? ''}`);
  if (!answer) {
    res.writeHead(404).end();
    return;
  }
  res.writeHead(answer.status, { ...answer.headers, 'Content-Length': answer.body.length });
  res.end(answer.body);
});
server.keepAliveTimeout = 65_000;
server.listen(0, '127.0.0.1', () => console.log(`listening ${server.address().port}`));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
