import type { ServiceEndpoint } from '@limelight/widgets/api';

// How each kind of service is called: one endpoint template per category, with parameters and
// what a run outputs (the runner widget renders by `output.type`; text with `streaming` arrives
// in pieces first). The local demo runtimes (server/runtimes/local) run every template here.

const p = (
  name: string,
  type: ServiceEndpoint['parameters'][number]['type'],
  required: boolean,
  description: string,
  fallback?: unknown,
): ServiceEndpoint['parameters'][number] => ({
  name,
  type,
  required,
  description,
  ...(fallback !== undefined ? { default: fallback } : {}),
});

const seed = p('seed', 'integer', false, 'Random seed; the same seed and inputs give the same output');

export const ENDPOINTS: Record<string, ServiceEndpoint[]> = {
  text2img: [
    {
      method: 'POST',
      path: '/generate',
      description: 'Generates images from a prompt',
      output: { type: 'image' },
      parameters: [
        p('prompt', 'string', true, 'What to draw'),
        p('negative_prompt', 'string', false, 'What to avoid', ''),
        p('width', 'integer', false, 'Width in pixels, multiple of 64', 1024),
        p('height', 'integer', false, 'Height in pixels, multiple of 64', 1024),
        p('num_inference_steps', 'integer', false, 'Denoising steps', 30),
        p('guidance_scale', 'number', false, 'How closely to follow the prompt', 7),
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
      parameters: [
        p('messages', 'array', true, 'Conversation as [{role, content}]'),
        p('max_tokens', 'integer', false, 'Upper bound of generated tokens', 512),
        p('temperature', 'number', false, 'Sampling temperature', 0.7),
        p('top_p', 'number', false, 'Nucleus sampling mass', 0.95),
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
        p('voice', 'string', false, 'Voice preset', 'aria'),
        p('speed', 'number', false, 'Speaking rate', 1),
        p('format', 'string', false, 'mp3, wav or ogg', 'mp3'),
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
        p('duration_s', 'integer', false, 'Length in seconds', 4),
        p('fps', 'integer', false, 'Frames per second', 24),
        p('resolution', 'string', false, '480p, 720p or 1080p', '720p'),
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
        p('output_format', 'string', false, 'glb, obj or usdz', 'glb'),
        p('texture_resolution', 'integer', false, 'Texture size in pixels', 1024),
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
        p('language', 'string', false, 'ISO 639-1 language code', 'en'),
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
        p('output_format', 'string', false, 'png or webp', 'png'),
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
        p('strength', 'number', false, 'How much to change, 0 to 1', 0.6),
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
        p('scale', 'integer', false, '2 or 4', 4),
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
        p('duration_s', 'integer', false, 'Length in seconds', 30),
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
        p('motion_bucket_id', 'integer', false, 'Amount of motion, 1 to 255', 127),
        p('frames', 'integer', false, 'Number of frames', 25),
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
        p('fps', 'integer', false, 'Frames per second', 24),
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
      parameters: [p('image', 'file', true, 'Image to describe'), p('detail', 'string', false, 'short or long', 'short')],
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
      parameters: [p('input', 'array', true, 'Texts to embed'), p('dimensions', 'integer', false, 'Vector length', 1024)],
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
