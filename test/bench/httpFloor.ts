// The floor under any HTTP job API on this machine, for the jobs bench: a bare node:http server
// and the bench's client (benchLoad.ts) in one process, as the bench's are, with the bench's load
// (10 requests at a time, BENCH_WARMUP requests first, then BENCH_JOBS measured) and its bytes:
// the create's request body and the answer the platform gave it (read as JSON from stdin). The
// server parses the body and sends the answer; nothing else. It runs in a process of its own, so
// its JIT warm-up is not shared with the platform's. Prints {"cpu_ms_per_request":N,"requests_per_s":N}.
import http from 'node:http';
import { performance } from 'node:perf_hooks';
import { atATime, request, textOf } from './benchLoad';

let input = '';
for await (const chunk of process.stdin) input += chunk;
const bytes = JSON.parse(input) as { request: string; answer: string };
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
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const url = new URL(`http://127.0.0.1:${(server.address() as { port: number }).port}/v1/jobs`);

const post = async () => JSON.parse(await textOf(await request(url, 'bench', 'POST', bytes.request))) as unknown;

await atATime(Number(process.env.BENCH_WARMUP ?? 100), 10, post);
const count = Number(process.env.BENCH_JOBS ?? 300);
const cpu = process.cpuUsage();
const started = performance.now();
await atATime(count, 10, post);
const { user, system } = process.cpuUsage(cpu);
console.log(
  JSON.stringify({
    cpu_ms_per_request: Math.round(((user + system) / 1000 / count) * 100) / 100,
    requests_per_s: Math.round(count / ((performance.now() - started) / 1000)),
  }),
);
process.exit(0);
