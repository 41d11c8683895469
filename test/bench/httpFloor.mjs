// The floor under any HTTP job API on this machine, for the jobs bench: a bare node:http server
// and client in one process (as the bench's are), with the bench's load (10 requests at a time,
// BENCH_WARMUP requests first, then BENCH_JOBS measured) and its bytes: the create's request body
// and the answer the platform gave it (read as JSON from stdin). The server parses the body and
// sends the answer; nothing else. Prints {"cpu_ms_per_request":N,"requests_per_s":N}.
import http from 'node:http';
import { performance } from 'node:perf_hooks';

let input = '';
for await (const chunk of process.stdin) input += chunk;
/** @type {{ request: string; answer: string }} */
const bytes = JSON.parse(input);
const answer = Buffer.from(bytes.answer);

const server = http.createServer((req, res) => {
  let body = '';
  req.setEncoding('utf8');
  req.on('data', (chunk) => (body += chunk));
  req.on('end', () => {
    JSON.parse(body);
    res.writeHead(201, { 'Content-Type': 'application/json', 'Content-Length': answer.length });
    res.end(answer);
  });
});
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const url = `http://127.0.0.1:${server.address().port}/v1/jobs`;
const agent = new http.Agent({ keepAlive: true, maxSockets: 16 });

const post = () =>
  new Promise((resolve, reject) => {
    const headers = { Authorization: 'Bearer bench', 'Content-Type': 'application/json' };
    const req = http.request(url, { method: 'POST', headers, agent }, async (res) => {
      let text = '';
      res.setEncoding('utf8');
      for await (const chunk of res) text += chunk;
      resolve(JSON.parse(text));
    });
    req.on('error', reject);
    req.end(bytes.request);
  });

async function requests(count) {
  let next = 0;
  await Promise.all(
    Array.from({ length: 10 }, async () => {
      while (next < count) {
        next++;
        await post();
      }
    }),
  );
}

await requests(Number(process.env.BENCH_WARMUP ?? 100));
const count = Number(process.env.BENCH_JOBS ?? 300);
const cpu = process.cpuUsage();
const started = performance.now();
await requests(count);
const { user, system } = process.cpuUsage(cpu);
console.log(
  JSON.stringify({
    cpu_ms_per_request: Math.round(((user + system) / 1000 / count) * 100) / 100,
    requests_per_s: Math.round(count / ((performance.now() - started) / 1000)),
  }),
);
process.exit(0);
