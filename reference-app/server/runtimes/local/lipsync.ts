import type { RunResult } from '../runtime';
import { durationOf, levels, readAudio } from './audio';
import { framePlan, gifWriter } from './gif';
import { canvas, decodeImage, fitWithin, type Image } from './images';
import { fileRef } from './inputs';
import { type DemoJob, isMilestone } from './job';
import { round } from './numbers';

// lipsync: a mouth that opens with the loudness of the audio, drawn over the video's first frame.
// The demo decodes GIF, PNG and JPEG "videos"; for other containers (MP4, WebM) it draws a plain
// face instead and says so in `notes`. The audio must be WAV: it is what drives the mouth.

const SIDE = 256;
const MAX_SECONDS = 6;

function drawnFace(): Image {
  const face = canvas(SIDE, SIDE);
  face.scan((x, y, idx) => {
    const d = ((x - SIDE / 2) / 90) ** 2 + ((y - SIDE / 2) / 110) ** 2;
    const skin = d <= 1;
    const eye = ((x - 95) ** 2 + (y - 105) ** 2 < 80 || (x - 161) ** 2 + (y - 105) ** 2 < 80) && skin;
    const rgb = eye ? [40, 30, 30] : skin ? [224, 180, 150] : [60, 70, 90];
    face.bitmap.data.set([...rgb, 255], idx);
  });
  return face;
}

function drawMouth(frame: Image, openness: number): void {
  const cx = frame.width / 2;
  const cy = frame.height * 0.68;
  const rx = frame.width * 0.12;
  const ry = Math.max(1.5, frame.height * 0.09 * openness);
  const x0 = Math.max(0, Math.floor(cx - rx));
  const y0 = Math.max(0, Math.floor(cy - ry));
  const w = Math.min(frame.width - x0, Math.ceil(2 * rx));
  const h = Math.min(frame.height - y0, Math.ceil(2 * ry));
  frame.scan(x0, y0, w, h, (x, y, idx) => {
    if (((x - cx) / rx) ** 2 + ((y - cy) / ry) ** 2 <= 1) frame.bitmap.data.set([90, 20, 30], idx);
  });
}

export async function lipsync(job: DemoJob): Promise<RunResult> {
  await job.step(0.05, 'Reading the video');
  const videoFile = await job.ctx.readFile(fileRef(job.input, 'video'));
  const notes: string[] = [];
  let base: Image;
  try {
    base = fitWithin(await decodeImage('video', videoFile.bytes, videoFile.contentType), SIDE);
  } catch {
    base = drawnFace();
    notes.push(`The local-demo runtime cannot decode ${videoFile.contentType || 'this video'}; the mouth is drawn on a plain face.`);
  }
  await job.step(0.1, 'Reading the audio');
  const audio = await readAudio(job, 'audio');
  const seconds = Math.min(MAX_SECONDS, durationOf(audio));
  if (durationOf(audio) > MAX_SECONDS) notes.push(`Only the first ${MAX_SECONDS} s of the audio are animated.`);
  const plan = framePlan(seconds, 12);
  const loudness = levels(audio, seconds / plan.frames).slice(0, plan.frames);
  const peak = Math.max(...loudness, 1e-6);
  const gif = gifWriter(base.width, base.height, plan.fps);
  for (let f = 0; f < plan.frames; f++) {
    const frame = base.clone() as Image;
    drawMouth(frame, (loudness[f] ?? 0) / peak);
    gif.add(frame.bitmap.data);
    await job.breathe();
    if (isMilestone(f, plan.frames)) await job.step(0.15 + (0.75 * (f + 1)) / plan.frames, `Synced frame ${f + 1} of ${plan.frames}`);
  }
  await job.step(0.95, 'Encoding the GIF');
  notes.push('The animated GIF has no sound track; play it with the audio you gave.');
  return {
    video: await gif.store(job),
    frames: plan.frames,
    fps: round(plan.fps, 2),
    duration_s: round(seconds),
    width: base.width,
    height: base.height,
    mouth_openness: loudness.map((l) => round(l / peak)),
    notes,
  };
}
