import type { RunResult } from '../runtime';
import { canvas, storePng } from './images';
import { int, num, seedOf, text } from './inputs';
import type { DemoJob } from './job';
import { labelImage } from './label';
import { composeScene, paintRows } from './scene';

// text2img: a seeded procedural picture of the prompt (see scene.ts), painted in bands so each
// band is one "denoising" progress step and the event loop is never held for long.

const BANDS = 8;

export async function textToImage(job: DemoJob): Promise<RunResult> {
  const { input } = job;
  const prompt = text(input, 'prompt', { required: true, max: 4000 });
  const negativePrompt = text(input, 'negative_prompt', { max: 4000 });
  const width = int(input, 'width', { fallback: 1024, min: 64, max: 2048 });
  const height = int(input, 'height', { fallback: 1024, min: 64, max: 2048 });
  const steps = int(input, 'num_inference_steps', { fallback: 30, min: 1, max: 500 });
  const guidance = num(input, 'guidance_scale', { fallback: 7, min: 0, max: 50 });
  const seed = seedOf(input, prompt, negativePrompt);

  await job.step(0.05, 'Reading the prompt');
  const scene = composeScene(prompt, negativePrompt, seed, guidance);
  const image = canvas(width, height);
  const frame = { data: image.bitmap.data, width, height };
  const grain = 160 / Math.sqrt(steps);
  for (let band = 0; band < BANDS; band++) {
    paintRows(scene, frame, Math.floor((band * height) / BANDS), Math.floor(((band + 1) * height) / BANDS), 0, grain);
    const done = Math.round(((band + 1) * steps) / BANDS);
    await job.step(0.1 + (0.8 * (band + 1)) / BANDS, `Denoising step ${done} of ${steps}`);
  }
  await labelImage(image, prompt);
  await job.step(0.95, 'Encoding the PNG');
  const stored = await storePng(job, image);
  return { image: stored, width, height, seed };
}
