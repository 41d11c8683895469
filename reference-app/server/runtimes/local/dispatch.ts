import type { ServiceEndpoint } from '@limelight/widgets/api';
import { RuntimeError } from '../runtime';
import { caption, readText } from './analysis';
import { chat } from './chat';
import { embedTexts } from './embeddings';
import { editImage, removeBackground, swapFace, upscaleImage } from './imageEdit';
import type { DemoHandler } from './job';
import { lipsync } from './lipsync';
import { generateMesh } from './mesh';
import { composeMusic } from './music';
import { cloneVoice, textToSpeech } from './speech';
import { textToImage } from './textToImage';
import { transcribe } from './transcribe';
import { animateCharacter, imageToVideo, textToVideo } from './video';

// Which demo handler runs an endpoint: chosen by what it outputs (`endpoint.output.type`, or a
// guess from its path for endpoints stored without one) and by the shape of its input (which
// parameters it takes, and which of them are files of which kind).

export type OutputType = NonNullable<ServiceEndpoint['output']>['type'];

const names = (e: ServiceEndpoint) => new Set(e.parameters.map((p) => p.name));
const files = (e: ServiceEndpoint, kind: 'image' | 'audio' | 'video') =>
  e.parameters.filter((p) => p.type === 'file' && p.name.includes(kind)).map((p) => p.name);

interface Route {
  output: OutputType;
  accepts(e: ServiceEndpoint): boolean;
  handler: DemoHandler;
}

const handler = (id: string, run: DemoHandler['run']): DemoHandler => ({ id, run });

export const HEALTH = handler('health', async (job) => {
  await job.step(1, 'Healthy');
  return { status: 'ok', runtime: 'local-demo' };
});

const ROUTES: Route[] = [
  { output: 'json', accepts: (e) => e.method === 'GET' && e.parameters.length === 0, handler: HEALTH },
  {
    output: 'image',
    accepts: (e) => names(e).has('source_image') && names(e).has('target_image'),
    handler: handler('face-swap', swapFace),
  },
  { output: 'image', accepts: (e) => files(e, 'image').length === 1 && names(e).has('scale'), handler: handler('upscaling', upscaleImage) },
  {
    output: 'image',
    accepts: (e) => files(e, 'image').length === 1 && names(e).has('prompt'),
    handler: handler('image-to-image', editImage),
  },
  { output: 'image', accepts: (e) => files(e, 'image').length === 1, handler: handler('background-removal', removeBackground) },
  { output: 'image', accepts: (e) => names(e).has('prompt'), handler: handler('text-to-image', textToImage) },
  { output: 'text', accepts: (e) => names(e).has('messages'), handler: handler('chat', chat) },
  { output: 'text', accepts: (e) => files(e, 'audio').length === 1, handler: handler('speech-to-text', transcribe) },
  { output: 'text', accepts: (e) => files(e, 'image').length === 1, handler: handler('captioning', caption) },
  { output: 'json', accepts: (e) => names(e).has('input'), handler: handler('embeddings', embedTexts) },
  { output: 'json', accepts: (e) => files(e, 'image').length === 1, handler: handler('ocr', readText) },
  {
    output: 'audio',
    accepts: (e) => files(e, 'audio').length === 1 && names(e).has('text'),
    handler: handler('voice-cloning', cloneVoice),
  },
  { output: 'audio', accepts: (e) => names(e).has('text'), handler: handler('text-to-speech', textToSpeech) },
  { output: 'audio', accepts: (e) => names(e).has('prompt'), handler: handler('music', composeMusic) },
  {
    output: 'video',
    accepts: (e) => files(e, 'video').length === 1 && files(e, 'audio').length === 1,
    handler: handler('lipsync', lipsync),
  },
  {
    output: 'video',
    accepts: (e) => files(e, 'image').length === 1 && files(e, 'video').length === 1,
    handler: handler('animation', animateCharacter),
  },
  { output: 'video', accepts: (e) => files(e, 'image').length === 1, handler: handler('image-to-video', imageToVideo) },
  { output: 'video', accepts: (e) => names(e).has('prompt'), handler: handler('text-to-video', textToVideo) },
  { output: 'mesh', accepts: (e) => names(e).has('prompt') || files(e, 'image').length > 0, handler: handler('3d', generateMesh) },
];

const OUTPUT_BY_PATH: Record<string, OutputType> = {
  '/health': 'json',
  '/chat': 'text',
  '/transcribe': 'text',
  '/describe': 'text',
  '/speak': 'audio',
  '/clone': 'audio',
  '/compose': 'audio',
  '/embed': 'json',
  '/read': 'json',
  '/detect': 'json',
  '/sync': 'video',
  '/animate': 'video',
  '/swap': 'image',
  '/remove': 'image',
  '/edit': 'image',
  '/upscale': 'image',
};

/** The endpoint's declared output, or a guess from its path and parameters for older records. */
export function outputOf(e: ServiceEndpoint): OutputType | undefined {
  if (e.output) return e.output.type;
  const byPath = OUTPUT_BY_PATH[e.path];
  if (byPath) return byPath;
  const has = names(e);
  if (has.has('output_format') && (has.has('texture_resolution') || has.has('image'))) return 'mesh';
  if (has.has('duration_s') || has.has('fps')) return 'video';
  if (has.has('prompt')) return 'image';
  return undefined;
}

/** The handler for an endpoint; a RuntimeError naming the endpoint when the demo cannot run it. */
export function handlerFor(e: ServiceEndpoint): DemoHandler {
  const output = outputOf(e);
  const route = ROUTES.find((r) => r.output === output && r.accepts(e));
  if (!route) {
    throw new RuntimeError(
      'unsupported_endpoint',
      `The local-demo runtime cannot run ${e.method} ${e.path}${output ? ` (${output} output)` : ''}: no demo produces that output from these inputs.`,
    );
  }
  return route.handler;
}
