import { NodeIO } from '@gltf-transform/core';
import { GifReader } from 'omggif';
import { describe, expect, it } from 'vitest';
import { type InputFile } from '../../../../reference-app/server/runtimes/runtime';
import { mediaOf, pngUri, runKind, tone, wavUri } from './harness';

// Animations (GIF) and meshes (glb, OBJ) of the local-demo runtime, decoded by independent readers.

function readGif(file: InputFile) {
  expect(file.contentType).toBe('image/gif');
  const gif = new GifReader(Buffer.from(file.bytes));
  const frame = (i: number) => {
    const rgba = new Uint8Array(gif.width * gif.height * 4);
    gif.decodeAndBlitFrameRGBA(i, rgba);
    return rgba;
  };
  return { width: gif.width, height: gif.height, frames: gif.numFrames(), loops: gif.loopCount(), frame, delay: gif.frameInfo(0).delay };
}

const differs = (a: Uint8Array, b: Uint8Array) => Buffer.compare(Buffer.from(a), Buffer.from(b)) !== 0;

describe('text2video', () => {
  it('renders a looping GIF with several different frames at the size of the resolution', async () => {
    const run = await runKind('text2video', { prompt: 'red balloons over a green field', duration_s: 2, fps: 6, resolution: '480p' });
    const gif = readGif(mediaOf(run, run.result.video));
    expect([gif.width, gif.height]).toEqual([320, 180]);
    expect(gif.frames).toBe(12);
    expect(gif.loops).toBe(0);
    expect(differs(gif.frame(0), gif.frame(6))).toBe(true);
    expect(run.result).toMatchObject({ frames: 12, fps: 6, width: 320, height: 180 });
  });

  it('caps long clips and says so', async () => {
    const run = await runKind('text2video', { prompt: 'waves', duration_s: 4, fps: 24 });
    expect(readGif(mediaOf(run, run.result.video)).frames).toBe(48);
    expect(run.result.notes).toContain('96 frames were asked; 48 were rendered (12 fps).');
  });

  it('gives the same bytes for the same prompt and seed', async () => {
    const input = { prompt: 'orbiting moons', duration_s: 1, fps: 4, seed: 3 };
    const [a, b] = await Promise.all([runKind('text2video', input), runKind('text2video', input)]);
    expect(Buffer.from(mediaOf(a, a.result.video).bytes).equals(Buffer.from(mediaOf(b, b.result.video).bytes))).toBe(true);
  });
});

describe('img2video and animation', () => {
  it('animates the input image: the first frame is the picture, later frames move', async () => {
    const image = await pngUri(64, 48, (x, y) => [x * 4, y * 5, 100]);
    const run = await runKind('img2video', { image, frames: 10, motion_bucket_id: 255 });
    const gif = readGif(mediaOf(run, run.result.video));
    expect([gif.width, gif.height, gif.frames]).toEqual([64, 48, 10]);
    expect(differs(gif.frame(0), gif.frame(9))).toBe(true);
    // Frame 0 is the input itself (quantised to 256 colours: within a small tolerance).
    const first = gif.frame(0);
    expect(Math.abs(first[(10 * 64 + 10) * 4] - 40)).toBeLessThan(12);
  });

  it('sways the character over the frames chosen by fps', async () => {
    const character_image = await pngUri(40, 80, (x) => (x > 15 && x < 25 ? [200, 50, 50] : [255, 255, 255]));
    const pose_video = wavUri(0.1, tone(100)).replace('audio/wav', 'video/mp4');
    const run = await runKind('animation', { character_image, pose_video, fps: 6 });
    const gif = readGif(mediaOf(run, run.result.video));
    expect([gif.width, gif.height, gif.frames]).toEqual([40, 80, 12]);
    expect(differs(gif.frame(0), gif.frame(2))).toBe(true);
    expect(run.result.notes).toContain('The local-demo runtime does not track poses; the pose video only chooses the sway.');
  });
});

describe('lipsync', () => {
  it('opens the mouth with the loudness of the audio', async () => {
    const audio = wavUri(2, (t) => (t < 1 ? 0 : tone(200, 0.8)(t)));
    const video = await pngUri(64, 64, () => [200, 200, 200]);
    const run = await runKind('lipsync', { video, audio });
    const openness = run.result.mouth_openness as number[];
    expect(openness).toHaveLength(run.result.frames as number);
    expect(Math.max(...openness.slice(0, openness.length / 2 - 1))).toBe(0);
    expect(Math.min(...openness.slice(openness.length / 2 + 1))).toBeGreaterThan(0.9);
    const gif = readGif(mediaOf(run, run.result.video));
    expect(gif.frames).toBe(24);
    const mouthPixel = (f: number) => gif.frame(f)[(Math.round(64 * 0.68) * 64 + 32) * 4];
    expect(mouthPixel(20)).toBeLessThan(150); // the open mouth is dark
  });

  it('draws a plain face when the video cannot be decoded, and says so', async () => {
    const run = await runKind('lipsync', { video: 'data:video/mp4;base64,AAAAGGZ0eXBtcDQy', audio: wavUri(0.5, tone(200)) });
    expect(run.result.notes).toContain('The local-demo runtime cannot decode video/mp4; the mouth is drawn on a plain face.');
    expect(readGif(mediaOf(run, run.result.video)).width).toBe(256);
  });
});

describe('3d', () => {
  it('writes a glb that glTF-Transform reads back, shaped by the prompt', async () => {
    const cube = await runKind('3d', { prompt: 'a wooden crate' });
    expect(cube.result).toMatchObject({ format: 'glb', shape: 'cube' });
    const file = mediaOf(cube, cube.result.mesh);
    expect(file.contentType).toBe('model/gltf-binary');
    const doc = await new NodeIO().readBinary(file.bytes);
    const primitive = doc.getRoot().listMeshes()[0].listPrimitives()[0];
    expect(primitive.getAttribute('POSITION')!.getCount()).toBe(cube.result.vertices);
    expect(primitive.getIndices()!.getCount()).toBe((cube.result.faces as number) * 3);
    expect(primitive.getAttribute('COLOR_0')).not.toBeNull();
    const torus = await runKind('3d', { prompt: 'a glazed donut' });
    expect(torus.result.shape).toBe('torus');
    expect(Buffer.from(mediaOf(torus, torus.result.mesh).bytes).equals(Buffer.from(file.bytes))).toBe(false);
  });

  it('lifts an image into a relief and writes OBJ with vertices and faces', async () => {
    const image = await pngUri(16, 8, (x) => (x < 8 ? [0, 0, 0] : [255, 255, 255]));
    const run = await runKind('3d', { image, output_format: 'obj' });
    const obj = new TextDecoder().decode(mediaOf(run, run.result.mesh).bytes);
    const vertices = obj.split('\n').filter((l) => l.startsWith('v '));
    const faces = obj.split('\n').filter((l) => l.startsWith('f '));
    expect(vertices).toHaveLength(16 * 8);
    expect(faces).toHaveLength(15 * 7 * 2);
    const heights = vertices.map((v) => Number(v.split(' ')[2]));
    expect(Math.min(...heights)).toBe(0);
    expect(Math.max(...heights)).toBeCloseTo(0.4, 3);
    for (const f of faces) for (const i of f.slice(2).split(' ').map(Number)) expect(i).toBeLessThanOrEqual(vertices.length);
  });

  it('needs a prompt or an image', async () => {
    await expect(runKind('3d', {})).rejects.toThrow('prompt: give a prompt or an image');
  });
});
