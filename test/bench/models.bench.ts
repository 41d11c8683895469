// The real models of the seeded services (the server README, "Local models"; issue 38, item 4):
//   npm run bench models      (BENCH_RUNS=30 warm runs each; BENCH_SERVICES=a,b for only those)
// For each service whose model is installed here, one JSON line:
//   {"bench":"models","service","load_ms","run_p50_ms","run_p99_ms","rss_mb"}
// load_ms: how much longer the first run of a fresh process takes than a warm one (finding the
// program, asking it for its version and languages, starting the helper process). run_*: RUNS
// warm runs one after another, through the runtime as the job queue calls it. rss_mb: the peak
// resident memory of the model's own process (VmHWM of tesseract / espeak-ng / pocketsphinx, sampled),
// or for the cutout and the face detector (worker threads of the server) the server process's growth
// over its resident size before.
// It measures and never fails on timings.
import { readFileSync } from 'node:fs';
import { createModelRuntimes, MODELS } from '../../reference-app/server/runtimes/models';
import { loadModelsConfig } from '../../reference-app/server/runtimes/models/config';
import { ENDPOINTS } from '../../reference-app/server/seed/endpoints';
import { ASTRONAUT, dataUri, shapeImage, speechWav, textImage } from '../integration/models/fixtures';
import { testContext } from '../unit/server/runtimes/harness';

const RUNS = Number(process.env.BENCH_RUNS ?? 30);
/** BENCH_SERVICES=lime-whisper,lime-vision measures only those. */
const ONLY = process.env.BENCH_SERVICES?.split(',');

const EXAMPLES: Record<string, () => Promise<Record<string, unknown>>> = {
  'lime-ocr': async () => ({ image: await textImage('Limes are green') }),
  'lime-voice': async () => ({ text: 'Limes are green, and lemons are yellow.' }),
  'lime-cutout': async () => ({ image: await shapeImage(800) }),
  'lime-whisper': async () => ({ audio: dataUri(speechWav('I would like to book a flight to Boston tomorrow morning'), 'audio/wav') }),
  'lime-vision': async () => ({ image: dataUri(readFileSync(ASTRONAUT), 'image/jpeg') }),
};

/** Peak resident memory (VmHWM) of the given process, polled until it is gone. */
function watchPeak(pid: number, peaks: number[]) {
  const read = () => {
    try {
      const hwm = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
      if (hwm) peaks.push(Number(hwm[1]) / 1024);
      setTimeout(read, 2);
    } catch {
      // ended
    }
  };
  read();
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
const round = (n: number) => Math.round(n * 10) / 10;

for (const tool of MODELS.filter((t) => !ONLY || ONLY.includes(t.service))) {
  const peaks: number[] = [];
  const models = createModelRuntimes(loadModelsConfig(process.env), { onStart: (pid) => watchPeak(pid, peaks) });
  const runtime = models.runtimeFor(tool.service);
  if (!runtime) {
    console.error(`${tool.service}: ${models.status(tool.service)?.detail}`);
    continue;
  }
  const input = await EXAMPLES[tool.service]!();
  const once = async () => {
    const { ctx } = testContext(ENDPOINTS[tool.service]![0]!);
    const started = performance.now();
    await runtime.run(input, ctx);
    return performance.now() - started;
  };
  global.gc?.();
  const rssBefore = process.memoryUsage().rss;
  let rssPeak = rssBefore;
  const sampler = setInterval(() => (rssPeak = Math.max(rssPeak, process.memoryUsage().rss)), 2);
  const first = await once();
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) times.push(await once());
  clearInterval(sampler);
  times.sort((a, b) => a - b);
  const p50 = percentile(times, 50);
  const rss = peaks.length > 0 ? Math.max(...peaks) : (rssPeak - rssBefore) / 1024 / 1024;
  console.log(
    JSON.stringify({
      bench: 'models',
      service: tool.service,
      load_ms: round(Math.max(0, first - p50)),
      run_p50_ms: round(p50),
      run_p99_ms: round(percentile(times, 99)),
      rss_mb: round(rss),
    }),
  );
}
// The helper process ends with this one (its channel is unreferenced).
