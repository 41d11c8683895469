import { ResizeStrategy } from 'jimp';
import type { RunResult } from '../runtime';
import { hashBytes, prng } from './hash';
import { fitWithin, type Image, readImage } from './images';
import { choice, fileRef, int, invalid, seedOf, text } from './inputs';
import { framePlan, gifWriter } from './gif';
import { type DemoJob, isMilestone } from './job';
import { clamp, round } from './numbers';
import { composeScene, paintRows } from './scene';

// Video handlers. The demo's video container is the animated GIF (no encoder binaries to
// download), rendered at a reduced size so a run takes seconds; results say so in `notes`.

const RESOLUTIONS = { '480p': [320, 180], '720p': [384, 216], '1080p': [480, 270] } as const;
const RESOLUTION_NAMES = Object.keys(RESOLUTIONS) as (keyof typeof RESOLUTIONS)[];
const PREVIEW_SIDE = 320;

function reducedNote(asked: { frames: number; fps: number }, got: { frames: number; fps: number }, size: string): string[] {
  const notes = [`The local-demo runtime renders an animated GIF at ${size}.`];
  if (got.frames < asked.frames) notes.push(`${asked.frames} frames were asked; ${got.frames} were rendered (${round(got.fps, 1)} fps).`);
  return notes;
}

// text2video: the text-to-image scene (scene.ts) with every shape moving on its seeded orbit.
export async function textToVideo(job: DemoJob): Promise<RunResult> {
  const { input } = job;
  const prompt = text(input, 'prompt', { required: true, max: 4000 });
  const seconds = int(input, 'duration_s', { fallback: 4, min: 1, max: 20 });
  const fps = int(input, 'fps', { fallback: 24, min: 1, max: 60 });
  const resolution = choice(input, 'resolution', RESOLUTION_NAMES, '720p');
  const seed = seedOf(input, prompt);
  await job.step(0.05, 'Reading the prompt');
  const scene = composeScene(prompt, '', seed, 7);
  const [width, height] = RESOLUTIONS[resolution];
  const plan = framePlan(seconds, fps);
  const gif = gifWriter(width, height, plan.fps);
  const data = new Uint8Array(width * height * 4);
  for (let f = 0; f < plan.frames; f++) {
    paintRows(scene, { data, width, height }, 0, height, f / plan.frames, 12);
    gif.add(data);
    await job.breathe();
    if (isMilestone(f, plan.frames)) await job.step(0.1 + (0.8 * (f + 1)) / plan.frames, `Rendered frame ${f + 1} of ${plan.frames}`);
  }
  await job.step(0.95, 'Encoding the GIF');
  return {
    video: await gif.store(job),
    frames: plan.frames,
    fps: round(plan.fps, 2),
    width,
    height,
    seed,
    notes: reducedNote({ frames: seconds * fps, fps }, plan, `${width}×${height}`),
  };
}

/** Renders `frames` frames, each drawn by `draw(t)` into a copy of the base image, as a GIF. */
async function animate(job: DemoJob, base: Image, frames: number, fps: number, draw: (frame: Image, t: number) => void) {
  const gif = gifWriter(base.width, base.height, fps);
  for (let f = 0; f < frames; f++) {
    const frame = base.clone() as Image;
    draw(frame, f / frames);
    gif.add(frame.bitmap.data);
    await job.breathe();
    if (isMilestone(f, frames)) await job.step(0.2 + (0.7 * (f + 1)) / frames, `Rendered frame ${f + 1} of ${frames}`);
  }
  await job.step(0.95, 'Encoding the GIF');
  return gif.store(job);
}

// img2video: a slow zoom and pan across the still image ("Ken Burns"); motion_bucket_id sets
// how far it moves, the seed which way.
export async function imageToVideo(job: DemoJob): Promise<RunResult> {
  const motion = int(job.input, 'motion_bucket_id', { fallback: 127, min: 1, max: 255 });
  const asked = int(job.input, 'frames', { fallback: 25, min: 2, max: 240 });
  await job.step(0.05, 'Reading the first frame');
  const source = await readImage(job, 'image');
  const seed = seedOf(job.input, source.width, source.height, motion);
  const base = fitWithin(source, PREVIEW_SIDE);
  const frames = Math.min(asked, 48);
  const random = prng(seed);
  const zoom = 0.05 + (motion / 255) * 0.35;
  const direction = random() * Math.PI * 2;
  await job.step(0.15, 'Planning the motion');
  const { width, height } = base;
  const video = await animate(job, base, frames, 8, (frame, t) => {
    const scale = 1 + zoom * t;
    const w = Math.max(1, Math.round(width / scale));
    const h = Math.max(1, Math.round(height / scale));
    const x = clamp(Math.round((width - w) / 2 + Math.cos(direction) * (width - w) * 0.5 * t), 0, width - w);
    const y = clamp(Math.round((height - h) / 2 + Math.sin(direction) * (height - h) * 0.5 * t), 0, height - h);
    frame.crop({ x, y, w, h }).resize({ w: width, h: height, mode: ResizeStrategy.BILINEAR });
  });
  return {
    video,
    frames,
    fps: 8,
    width,
    height,
    seed,
    notes: reducedNote({ frames: asked, fps: 8 }, { frames, fps: 8 }, `${width}×${height}`),
  };
}

// animation: the character sways and bounces. The demo cannot extract poses from a video, so the
// pose video only chooses the motion (its content hash sets the amplitude and tempo).
export async function animateCharacter(job: DemoJob): Promise<RunResult> {
  const fps = int(job.input, 'fps', { fallback: 24, min: 1, max: 60 });
  await job.step(0.05, 'Reading the character');
  const character = await readImage(job, 'character_image');
  const pose = await job.ctx.readFile(fileRef(job.input, 'pose_video'));
  if (pose.bytes.length === 0) throw invalid('pose_video', 'the file is empty');
  await job.step(0.15, 'Reading the pose video');
  const random = prng(hashBytes(pose.bytes));
  const sway = 4 + random() * 10;
  const beats = 1 + Math.floor(random() * 3);
  const base = fitWithin(character, PREVIEW_SIDE);
  // Rotating a frame is the slow part here, so the clip is shorter than the other animations.
  const plan = framePlan(2, fps, 24);
  const video = await animate(job, base, plan.frames, plan.fps, (frame, t) => {
    const angle = Math.sin(t * Math.PI * 2 * beats) * sway;
    frame.rotate({ deg: angle, mode: false });
  });
  return {
    video,
    frames: plan.frames,
    fps: round(plan.fps, 2),
    width: base.width,
    height: base.height,
    notes: [
      ...reducedNote({ frames: 2 * fps, fps }, plan, `${base.width}×${base.height}`),
      'The local-demo runtime does not track poses; the pose video only chooses the sway.',
    ],
  };
}
