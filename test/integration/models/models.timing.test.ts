import { readFileSync } from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { expect, it } from 'vitest';
import { createModelRuntimes, loadModelsConfig } from '../../../reference-app/server/runtimes';
import { ENDPOINTS } from '../../../reference-app/server/seed';
import { testContext } from '../../unit/server/runtimes/harness';
import { ASTRONAUT, dataUri, shapeImage, speechWav, textImage } from './fixtures';

// The real models never hold the event loop (the server README, "Local models"; issue 38,
// item 2): OCR, speech and transcription run as child processes started by a helper process, the
// cutout, the WAV resampling and the face detector in worker threads, images are decoded and encoded on libvips's threads. The runtimes run in this
// process exactly as the job queue calls them, several of each at once, while a probe measures
// the loop's longest stall. (The platform's own job handling is watched by jobs/loop-delay.)
// A timing test: it runs in the serial integration step (vitest project integration-serial).

const MAX_STALL_MS = 50;

it('keeps the loop under 50 ms while OCR, speech, cutouts, transcription and face detection run at once', async () => {
  const models = createModelRuntimes(loadModelsConfig({}));
  // Inputs made before the probe starts: drawing them is the test's work, not the runtime's.
  const inputs = {
    'lime-ocr': { image: await textImage('The quick brown fox jumps over the lazy dog', 1600, 400) },
    'lime-voice': { text: 'Limes are green, lemons are yellow. '.repeat(20) },
    'lime-cutout': { image: await shapeImage(1200) },
    'lime-whisper': { audio: dataUri(speechWav('I would like to book a flight to Boston tomorrow morning'), 'audio/wav') },
    'lime-vision': { image: dataUri(readFileSync(ASTRONAUT), 'image/jpeg') },
  };
  const run = (service: keyof typeof inputs) => {
    const { ctx } = testContext(ENDPOINTS[service]![0]!);
    return models.runtimeFor(service)!.run(inputs[service], ctx) as Promise<Record<string, unknown>>;
  };
  const services = Object.keys(inputs) as Array<keyof typeof inputs>;
  // Warm up: each model found and loaded, the helper process started, once before measuring.
  await Promise.all(services.map(run));
  const probe = monitorEventLoopDelay({ resolution: 5 });
  probe.enable();
  const results = await Promise.all([0, 1, 2].flatMap(() => services.map(run)));
  probe.disable();
  expect(results.filter((r) => r.text === 'The quick brown fox jumps over the lazy dog')).toHaveLength(3);
  expect(results.filter((r) => r.sample_rate === 22050)).toHaveLength(3);
  expect(results.filter((r) => Array.isArray(r.subject_bbox))).toHaveLength(3);
  expect(results.filter((r) => typeof r.text === 'string' && r.text.includes('morning'))).toHaveLength(3);
  expect(results.filter((r) => r.count === 3)).toHaveLength(3);
  expect(probe.max / 1e6).toBeLessThan(MAX_STALL_MS);
}, 90_000);
