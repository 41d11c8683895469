import type { ServiceEndpoint } from '@limelight/widgets/api';
import { VOICE_LANGUAGES, VOICE_VARIANTS, MAX_VOICE_TEXT } from '../runtimes/models/voice';

// The endpoints of the seeded services that run a real model on this server (runtimes/models,
// the server README, "Local models"): they say what the model really does and its limits. The
// local demo runtime still runs them where the model is not installed (its outputs say so).

export const LOCAL_MODEL_ENDPOINTS: Record<string, ServiceEndpoint[]> = {
  'lime-ocr': [
    {
      method: 'POST',
      path: '/read',
      description: 'Reads printed text (Tesseract 5) and returns it with a box and confidence for every word and line',
      output: { type: 'json' },
      time_limit_s: 60,
      parameters: [
        {
          name: 'image',
          type: 'file',
          required: true,
          description: 'Scan, screenshot or photo of printed text: PNG, JPEG, GIF, BMP, TIFF or WebP, up to 16 megapixels',
        },
        {
          name: 'languages',
          type: 'array',
          items: { type: 'string' },
          required: false,
          default: ['en'],
          description: 'Languages of the text; English ("en") is installed on this server, others are refused',
        },
      ],
    },
  ],
  'lime-voice': [
    {
      method: 'POST',
      path: '/speak',
      description: 'Speaks the text with eSpeak NG in the chosen language and voice (WAV, 22 050 Hz mono)',
      output: { type: 'audio' },
      time_limit_s: 60,
      parameters: [
        { name: 'text', type: 'string', required: true, description: `Text to speak, up to ${MAX_VOICE_TEXT} characters` },
        {
          name: 'language',
          type: 'string',
          required: false,
          default: 'en-us',
          enum: [...VOICE_LANGUAGES],
          description: 'Language and accent of the speech',
        },
        {
          name: 'voice',
          type: 'string',
          required: false,
          default: 'female-1',
          enum: Object.keys(VOICE_VARIANTS),
          description: 'Voice variant',
        },
        {
          name: 'speed',
          type: 'number',
          required: false,
          default: 1,
          minimum: 0.5,
          maximum: 2,
          description: 'Speaking rate (1: 175 words a minute)',
        },
        { name: 'pitch', type: 'integer', required: false, default: 50, minimum: 0, maximum: 99, description: 'Base pitch' },
      ],
    },
  ],
  'lime-cutout': [
    {
      method: 'POST',
      path: '/remove',
      description: 'Makes the backdrop of a product or portrait shot transparent (colour model, no learned model)',
      output: { type: 'image' },
      time_limit_s: 60,
      parameters: [
        {
          name: 'image',
          type: 'file',
          required: true,
          description: 'Subject on a plain or simple backdrop (studio, wall, sky): PNG, JPEG, GIF, BMP, TIFF or WebP, up to 16 megapixels',
        },
        {
          name: 'output_format',
          type: 'string',
          required: false,
          default: 'png',
          enum: ['png', 'webp'],
          description: 'File format (both keep transparency)',
        },
        {
          name: 'tolerance',
          type: 'integer',
          required: false,
          default: 30,
          minimum: 1,
          maximum: 100,
          description: 'How far a colour may be from the backdrop and still count as backdrop',
        },
        {
          name: 'soft_edges',
          type: 'boolean',
          required: false,
          default: true,
          description: 'Partly transparent edge pixels instead of a hard cut',
        },
      ],
    },
  ],
};
