import type { ServiceEndpoint } from '@limelight/widgets/api';
import { composeReply, tokenize } from '../runtimes/local/chat';
import { LOCAL_MODEL_ENDPOINTS } from './localModels';

// How each kind of service is called: one endpoint template per category, with parameters and
// what a run outputs (the runner widget renders by `output.type`; text with `streaming` arrives
// in pieces first). The local demo runtimes (server/runtimes/local) run every template here; the
// services with a real model on this server have their own (localModels.ts).

type Parameter = ServiceEndpoint['parameters'][number];

const p = (
  name: string,
  type: Parameter['type'],
  required: boolean,
  description: string,
  fallback?: unknown,
  rules: Pick<Parameter, 'enum' | 'minimum' | 'maximum'> = {},
): Parameter => ({
  name,
  type,
  required,
  description,
  ...(fallback !== undefined ? { default: fallback } : {}),
  ...rules,
});

/** A parameter with a fixed list of values: the playground renders it as a select. */
const choice = (
  name: string,
  description: string,
  values: Array<string | number>,
  fallback: string | number,
  type: Parameter['type'] = 'string',
) => p(name, type, false, description, fallback, { enum: values });

/** A bounded number: the playground renders it as a slider with an input beside it. */
const range = (name: string, type: 'integer' | 'number', description: string, fallback: number, minimum: number, maximum: number) =>
  p(name, type, false, description, fallback, { minimum, maximum });

const seed = p('seed', 'integer', false, 'Random seed; the same seed and inputs give the same output');

/**
 * The chat endpoint's example, computed by the local demo runtime's own reply function, so the
 * example is exactly what a run of the example input returns there.
 */
function chatExample(): NonNullable<ServiceEndpoint['example']> {
  const messages = [{ role: 'user' as const, content: 'Which citrus fruit is the most sour?' }];
  const text = composeReply(messages, 0.7);
  const promptTokens = tokenize(messages[0]!.content).length;
  const completion = tokenize(text).length;
  return {
    input: { messages },
    result: {
      text,
      message: { role: 'assistant', content: text },
      finish_reason: 'stop',
      usage: { prompt_tokens: promptTokens, completion_tokens: completion, total_tokens: promptTokens + completion },
    },
  };
}

export const ENDPOINTS: Record<string, ServiceEndpoint[]> = {
  ...LOCAL_MODEL_ENDPOINTS,
  text2img: [
    {
      method: 'POST',
      path: '/generate',
      description: 'Generates images from a prompt',
      output: { type: 'image' },
      parameters: [
        p('prompt', 'string', true, 'What to draw'),
        p('negative_prompt', 'string', false, 'What to avoid', ''),
        // Bounded, not a fixed list: any size from 64 to 2048 px renders (a slider and an input).
        range('width', 'integer', 'Width in pixels', 1024, 64, 2048),
        range('height', 'integer', 'Height in pixels', 1024, 64, 2048),
        range('num_inference_steps', 'integer', 'Denoising steps', 30, 1, 150),
        range('guidance_scale', 'number', 'How closely to follow the prompt', 7, 0, 20),
        seed,
      ],
    },
  ],
  llm: [
    {
      method: 'POST',
      path: '/chat',
      description: 'Answers a conversation',
      output: { type: 'text', streaming: true },
      example: chatExample(),
      parameters: [
        p('messages', 'array', true, 'Conversation as [{role, content}]'),
        range('max_tokens', 'integer', 'Upper bound of generated tokens', 512, 1, 4096),
        range('temperature', 'number', 'Sampling temperature', 0.7, 0, 2),
        range('top_p', 'number', 'Nucleus sampling mass', 0.95, 0, 1),
        p('stream', 'boolean', false, 'Stream tokens as server-sent events', false),
      ],
    },
  ],
  tts: [
    {
      method: 'POST',
      path: '/speak',
      description: 'Reads text aloud',
      output: { type: 'audio' },
      parameters: [
        p('text', 'string', true, 'Text to speak, up to 5000 characters'),
        choice('voice', 'Voice preset', ['aria', 'nova', 'alloy', 'echo', 'onyx', 'sage'], 'aria'),
        range('speed', 'number', 'Speaking rate', 1, 0.5, 2),
        choice('format', 'Audio format', ['mp3', 'wav', 'ogg'], 'mp3'),
      ],
    },
  ],
  text2video: [
    {
      method: 'POST',
      path: '/generate',
      description: 'Generates a video clip from a prompt',
      output: { type: 'video' },
      parameters: [
        p('prompt', 'string', true, 'Scene description'),
        range('duration_s', 'integer', 'Length in seconds', 4, 1, 10),
        choice('fps', 'Frames per second', [8, 12, 24, 30], 24, 'integer'),
        choice('resolution', 'Resolution', ['480p', '720p', '1080p'], '720p'),
        seed,
      ],
    },
  ],
  '3d': [
    {
      method: 'POST',
      path: '/generate',
      description: 'Builds a textured mesh',
      output: { type: 'mesh' },
      parameters: [
        p('image', 'file', false, 'Reference image (or give a prompt)'),
        p('prompt', 'string', false, 'Object description (or give an image)'),
        choice('output_format', 'File format', ['glb', 'obj', 'usdz'], 'glb'),
        choice('texture_resolution', 'Texture size in pixels', [512, 1024, 2048], 1024, 'integer'),
      ],
    },
  ],
  'face-swap': [
    {
      method: 'POST',
      path: '/swap',
      description: 'Puts the face of the source image into the target image',
      output: { type: 'image' },
      parameters: [
        p('source_image', 'file', true, 'Image with the face to use'),
        p('target_image', 'file', true, 'Image whose face is replaced'),
        p('enhance', 'boolean', false, 'Restore face details afterwards', true),
      ],
    },
  ],
  'voice-cloning': [
    {
      method: 'POST',
      path: '/clone',
      description: 'Speaks text in the voice of a reference recording',
      output: { type: 'audio' },
      parameters: [
        p('reference_audio', 'file', true, '10 to 60 seconds of clean speech'),
        p('text', 'string', true, 'Text to speak'),
        choice('language', 'Language', ['en', 'de', 'fr', 'es', 'it', 'pt', 'ja', 'zh'], 'en'),
      ],
    },
  ],
  'background-removal': [
    {
      method: 'POST',
      path: '/remove',
      description: 'Cuts out the foreground',
      output: { type: 'image' },
      parameters: [
        p('image', 'file', true, 'Photo to cut out'),
        choice('output_format', 'File format', ['png', 'webp'], 'png'),
        p('alpha_matting', 'boolean', false, 'Refine hair and fur edges', false),
      ],
    },
  ],
  img2img: [
    {
      method: 'POST',
      path: '/edit',
      description: 'Edits an image following an instruction',
      output: { type: 'image' },
      parameters: [
        p('image', 'file', true, 'Image to edit'),
        p('prompt', 'string', true, 'The edit to make'),
        range('strength', 'number', 'How much to change', 0.6, 0, 1),
        seed,
      ],
    },
  ],
  upscaling: [
    {
      method: 'POST',
      path: '/upscale',
      description: 'Enlarges an image and restores detail',
      output: { type: 'image' },
      parameters: [
        p('image', 'file', true, 'Image to enlarge'),
        choice('scale', 'Enlargement factor', [2, 4], 4, 'integer'),
        p('face_enhance', 'boolean', false, 'Restore faces as well', false),
      ],
    },
  ],
  stt: [
    {
      method: 'POST',
      path: '/transcribe',
      description: 'Turns speech into text',
      output: { type: 'text', streaming: true },
      parameters: [
        p('audio', 'file', true, 'Recording (mp3, wav, m4a, ogg)'),
        p('language', 'string', false, 'Language code, or empty to detect'),
        p('timestamps', 'boolean', false, 'Return word timestamps', false),
      ],
    },
  ],
  music: [
    {
      method: 'POST',
      path: '/compose',
      description: 'Composes a piece of music',
      output: { type: 'audio' },
      parameters: [
        p('prompt', 'string', true, 'Mood, instruments, tempo'),
        range('duration_s', 'integer', 'Length in seconds', 30, 1, 120),
        p('genre', 'string', false, 'Genre hint'),
      ],
    },
  ],
  img2video: [
    {
      method: 'POST',
      path: '/animate',
      description: 'Brings a still image to life',
      output: { type: 'video' },
      parameters: [
        p('image', 'file', true, 'First frame'),
        range('motion_bucket_id', 'integer', 'Amount of motion', 127, 1, 255),
        range('frames', 'integer', 'Number of frames', 25, 2, 48),
        seed,
      ],
    },
  ],
  animation: [
    {
      method: 'POST',
      path: '/animate',
      description: 'Moves a character along a pose sequence',
      output: { type: 'video' },
      parameters: [
        p('character_image', 'file', true, 'The character, full body'),
        p('pose_video', 'file', true, 'Video whose motion to copy'),
        choice('fps', 'Frames per second', [8, 12, 24, 30], 24, 'integer'),
      ],
    },
  ],
  lipsync: [
    {
      method: 'POST',
      path: '/sync',
      description: 'Matches lip movement to new audio',
      output: { type: 'video' },
      parameters: [p('video', 'file', true, 'Video with a visible face'), p('audio', 'file', true, 'Speech to match')],
    },
  ],
  captioning: [
    {
      method: 'POST',
      path: '/describe',
      description: 'Describes what an image shows',
      output: { type: 'text' },
      parameters: [p('image', 'file', true, 'Image to describe'), choice('detail', 'How much to say', ['short', 'long'], 'short')],
    },
  ],
  ocr: [
    {
      method: 'POST',
      path: '/read',
      description: 'Extracts text with positions',
      output: { type: 'json' },
      parameters: [p('image', 'file', true, 'Scan or photo'), p('languages', 'array', false, 'Language codes', ['en'])],
    },
  ],
  embeddings: [
    {
      method: 'POST',
      path: '/embed',
      description: 'Embeds texts as vectors',
      output: { type: 'json' },
      parameters: [
        p('input', 'array', true, 'Texts to embed'),
        choice('dimensions', 'Vector length', [256, 512, 768, 1024], 1024, 'integer'),
      ],
    },
  ],
};

export const HEALTH_ENDPOINT: ServiceEndpoint = {
  method: 'GET',
  path: '/health',
  description: 'Liveness probe',
  output: { type: 'json' },
  parameters: [],
};
