import { Document, NodeIO } from '@gltf-transform/core';
import type { RunResult } from '../runtime';
import { colourOfWord, hslToRgb, type Rgb } from './colours';
import { hash32, prng, wordsOf } from './hash';
import { fitWithin, type Image, readImage } from './images';
import { choice, hasValue, int, invalid, text } from './inputs';
import type { DemoJob } from './job';

// 3D: a prompt picks a primitive by its words (cube, sphere, cylinder, cone, torus) and the seed
// bends it; an image becomes a relief (luminance as height, pixels as vertex colours). Written as
// binary glTF by glTF-Transform, or as Wavefront OBJ text.

export interface Mesh {
  positions: number[];
  colours: number[];
  indices: number[];
}

type Primitive = 'cube' | 'sphere' | 'cylinder' | 'cone' | 'torus';
const PRIMITIVE_WORDS: Record<string, Primitive> = {
  cube: 'cube',
  box: 'cube',
  crate: 'cube',
  house: 'cube',
  building: 'cube',
  dice: 'cube',
  sphere: 'sphere',
  ball: 'sphere',
  planet: 'sphere',
  orb: 'sphere',
  head: 'sphere',
  apple: 'sphere',
  cylinder: 'cylinder',
  can: 'cylinder',
  tower: 'cylinder',
  pillar: 'cylinder',
  cup: 'cylinder',
  mug: 'cylinder',
  cone: 'cone',
  tree: 'cone',
  mountain: 'cone',
  pyramid: 'cone',
  rocket: 'cone',
  torus: 'torus',
  donut: 'torus',
  doughnut: 'torus',
  ring: 'torus',
  tyre: 'torus',
  tire: 'torus',
};
const PRIMITIVES: Primitive[] = ['cube', 'sphere', 'cylinder', 'cone', 'torus'];
const SEGMENTS = 32;

/** A (u, v) grid mapped to 3D by `at`, with quads split into triangles. */
function surface(
  rows: number,
  cols: number,
  at: (u: number, v: number) => [number, number, number],
  colour: (u: number, v: number) => Rgb,
): Mesh {
  const mesh: Mesh = { positions: [], colours: [], indices: [] };
  for (let r = 0; r <= rows; r++) {
    for (let c = 0; c <= cols; c++) {
      mesh.positions.push(...at(c / cols, r / rows));
      mesh.colours.push(...colour(c / cols, r / rows).map((x) => x / 255));
    }
  }
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++) {
      const a = r * (cols + 1) + c;
      const b = a + cols + 1;
      mesh.indices.push(a, b, a + 1, a + 1, b, b + 1);
    }
  }
  return mesh;
}

export function meshFromPrompt(prompt: string, seed: number): { mesh: Mesh; primitive: Primitive } {
  const words = wordsOf(prompt);
  const primitive = words.map((w) => PRIMITIVE_WORDS[w]).find(Boolean) ?? PRIMITIVES[hash32(prompt) % PRIMITIVES.length];
  const random = prng(seed);
  const base = words.map(colourOfWord).find(Boolean) ?? hslToRgb(random(), 0.6, 0.5);
  const bumps = Array.from({ length: 4 }, () => [1 + Math.floor(random() * 5), random() * Math.PI * 2, random() * 0.08] as const);
  // Seeded ripples make two prompts of the same primitive different shapes.
  const wobble = (u: number, v: number) =>
    1 + bumps.reduce((s, [k, p, a]) => s + a * Math.sin(k * (u * Math.PI * 2) + p) * Math.sin(k * v * Math.PI), 0);
  const shade = (_u: number, v: number): Rgb => base.map((c) => Math.round(c * (0.6 + 0.4 * v))) as unknown as Rgb;
  const TAU = Math.PI * 2;
  const shapes: Record<Primitive, (u: number, v: number) => [number, number, number]> = {
    sphere: (u, v) => {
      const r = wobble(u, v);
      return [r * Math.sin(v * Math.PI) * Math.cos(u * TAU), r * Math.cos(v * Math.PI), r * Math.sin(v * Math.PI) * Math.sin(u * TAU)];
    },
    cylinder: (u, v) => [wobble(u, v) * 0.6 * Math.cos(u * TAU), 1 - 2 * v, wobble(u, v) * 0.6 * Math.sin(u * TAU)],
    cone: (u, v) => [wobble(u, v) * 0.8 * v * Math.cos(u * TAU), 1 - 2 * v, wobble(u, v) * 0.8 * v * Math.sin(u * TAU)],
    torus: (u, v) => {
      const r = 0.3 * wobble(u, v);
      return [(0.8 + r * Math.cos(v * TAU)) * Math.cos(u * TAU), r * Math.sin(v * TAU), (0.8 + r * Math.cos(v * TAU)) * Math.sin(u * TAU)];
    },
    // A superellipsoid with a high exponent: a rounded cube on the same (u, v) grid.
    cube: (u, v) => {
      const sgnPow = (x: number) => Math.sign(x) * Math.abs(x) ** 0.2;
      const w = wobble(u, v) * 0.8;
      return [
        w * sgnPow(Math.sin(v * Math.PI)) * sgnPow(Math.cos(u * TAU)),
        w * sgnPow(Math.cos(v * Math.PI)),
        w * sgnPow(Math.sin(v * Math.PI)) * sgnPow(Math.sin(u * TAU)),
      ];
    },
  };
  return { mesh: surface(SEGMENTS, SEGMENTS, shapes[primitive], shade), primitive };
}

export function meshFromImage(image: Image): Mesh {
  const small = fitWithin(image, 64);
  const { width, height, data } = small.bitmap;
  const pixel = (u: number, v: number) => {
    const i = (Math.min(height - 1, Math.round(v * (height - 1))) * width + Math.min(width - 1, Math.round(u * (width - 1)))) * 4;
    return [data[i], data[i + 1], data[i + 2]] as const;
  };
  const aspect = width / height;
  return surface(
    height - 1,
    width - 1,
    (u, v) => {
      const [r, g, b] = pixel(u, v);
      return [(u - 0.5) * 2 * aspect, ((0.2126 * r + 0.7152 * g + 0.0722 * b) / 255) * 0.4, (v - 0.5) * 2];
    },
    (u, v) => pixel(u, v) as unknown as Rgb,
  );
}

export async function toGlb(mesh: Mesh, name: string): Promise<Uint8Array> {
  const doc = new Document();
  const buffer = doc.createBuffer();
  const position = doc.createAccessor().setType('VEC3').setArray(new Float32Array(mesh.positions)).setBuffer(buffer);
  const colour = doc.createAccessor().setType('VEC3').setArray(new Float32Array(mesh.colours)).setBuffer(buffer);
  const indices = doc.createAccessor().setType('SCALAR').setArray(new Uint32Array(mesh.indices)).setBuffer(buffer);
  const material = doc.createMaterial('local-demo').setDoubleSided(true).setRoughnessFactor(0.8).setMetallicFactor(0);
  const primitive = doc
    .createPrimitive()
    .setAttribute('POSITION', position)
    .setAttribute('COLOR_0', colour)
    .setIndices(indices)
    .setMaterial(material);
  const node = doc.createNode(name).setMesh(doc.createMesh(name).addPrimitive(primitive));
  doc.createScene('local-demo').addChild(node);
  doc.getRoot().getAsset().generator = 'Limelight local-demo runtime';
  return new NodeIO().writeBinary(doc);
}

export function toObj(mesh: Mesh, name: string): string {
  const lines = [`# Limelight local-demo runtime: ${name}`, `o ${name.replace(/\s+/g, '_')}`];
  for (let i = 0; i < mesh.positions.length; i += 3) {
    const v = mesh.positions.slice(i, i + 3).map((x) => x.toFixed(5));
    const c = mesh.colours.slice(i, i + 3).map((x) => x.toFixed(4));
    lines.push(`v ${v.join(' ')} ${c.join(' ')}`);
  }
  for (let i = 0; i < mesh.indices.length; i += 3)
    lines.push(
      `f ${mesh.indices
        .slice(i, i + 3)
        .map((x) => x + 1)
        .join(' ')}`,
    );
  return `${lines.join('\n')}\n`;
}

export async function generateMesh(job: DemoJob): Promise<RunResult> {
  const prompt = text(job.input, 'prompt', { max: 4000 });
  const format = choice(job.input, 'output_format', ['glb', 'obj', 'usdz'] as const, 'glb');
  int(job.input, 'texture_resolution', { fallback: 1024, min: 64, max: 8192 });
  if (!hasValue(job.input, 'image') && prompt.trim() === '') throw invalid('prompt', 'give a prompt or an image');
  await job.step(0.05, 'Reading the input');
  let built: { mesh: Mesh; source: string };
  if (hasValue(job.input, 'image')) {
    const image = await readImage(job, 'image');
    await job.step(0.3, 'Lifting the image into a relief');
    built = { mesh: meshFromImage(image), source: 'image relief' };
  } else {
    await job.step(0.3, 'Shaping the mesh');
    const { mesh, primitive } = meshFromPrompt(prompt, hash32(prompt));
    built = { mesh, source: primitive };
  }
  await job.step(0.6, 'Colouring vertices');
  const vertices = built.mesh.positions.length / 3;
  const faces = built.mesh.indices.length / 3;
  await job.step(0.8, `Writing ${format === 'obj' ? 'OBJ' : 'glTF binary'}`);
  const stored =
    format === 'obj'
      ? await job.ctx.storeMedia(new TextEncoder().encode(toObj(built.mesh, built.source)), 'model/obj')
      : await job.ctx.storeMedia(await toGlb(built.mesh, built.source), 'model/gltf-binary');
  return {
    mesh: stored,
    format: format === 'obj' ? 'obj' : 'glb',
    vertices,
    faces,
    shape: built.source,
    notes: [
      'The local-demo runtime colours vertices instead of baking a texture.',
      ...(format === 'usdz' ? ['The local-demo runtime writes glb or obj; usdz was requested, glb was written.'] : []),
    ],
  };
}
