import { gifenc } from './gifencModule';
import type { MediaRef } from '../runtime';
import type { DemoJob } from './job';

// Animated GIF output for the video handlers, encoded by gifenc (pure JS): each frame gets its
// own 256-colour palette, and the animation loops (gifenc's default).

export interface GifWriter {
  readonly width: number;
  readonly height: number;
  add(rgba: Uint8Array): void;
  store(job: DemoJob): Promise<MediaRef>;
}

export function gifWriter(width: number, height: number, fps: number): GifWriter {
  const encoder = gifenc.GIFEncoder();
  // GIF delays are in hundredths of a second; gifenc takes milliseconds and rounds.
  const delay = Math.max(20, Math.round(1000 / fps));
  return {
    width,
    height,
    add(rgba) {
      const palette = gifenc.quantize(rgba, 256);
      encoder.writeFrame(gifenc.applyPalette(rgba, palette), width, height, { palette, delay });
    },
    store(job) {
      encoder.finish();
      return job.ctx.storeMedia(encoder.bytes(), 'image/gif');
    },
  };
}

/** How many frames the demo renders for `seconds` at `fps`, capped so a run stays short. */
export const MAX_FRAMES = 48;
export function framePlan(seconds: number, fps: number, maxFrames = MAX_FRAMES): { frames: number; fps: number } {
  const frames = Math.max(2, Math.min(maxFrames, Math.round(seconds * fps)));
  return { frames, fps: frames / seconds };
}
