// Categories of the catalogue. The first eight are the home page's chips, in the chip order of
// product-rules §2 ('Generate images' … 'Background removal'); the rest fill in the domains of product-rules §3.
// Domains are written as services publish them, casing and all; clients normalise (product-rules §5).

export interface SeedCategory {
  id: string;
  title: string;
  input_domain: string[];
  output_domain: string[];
}

export const SEED_CATEGORIES: SeedCategory[] = [
  { id: 'text2img', title: 'Generate images', input_domain: ['text'], output_domain: ['image'] },
  { id: 'llm', title: 'Generate text', input_domain: ['text'], output_domain: ['text'] },
  { id: 'tts', title: 'Generate speech', input_domain: ['Text'], output_domain: ['Audio'] },
  { id: 'text2video', title: 'Generate videos', input_domain: ['text'], output_domain: ['video'] },
  { id: '3d', title: 'Generate 3D', input_domain: ['image', 'text'], output_domain: ['misc'] },
  { id: 'face-swap', title: 'Swap faces', input_domain: ['image'], output_domain: ['image'] },
  { id: 'voice-cloning', title: 'Voice cloning', input_domain: ['audio', 'text'], output_domain: ['audio'] },
  { id: 'background-removal', title: 'Background removal', input_domain: ['IMAGE'], output_domain: ['image'] },
  { id: 'img2img', title: 'Edit images', input_domain: ['image', 'text'], output_domain: ['image'] },
  { id: 'upscaling', title: 'Upscale images', input_domain: ['image'], output_domain: ['image'] },
  { id: 'stt', title: 'Transcribe speech', input_domain: ['audio'], output_domain: ['text'] },
  { id: 'music', title: 'Generate music', input_domain: ['text'], output_domain: ['audio'] },
  { id: 'img2video', title: 'Animate images into video', input_domain: ['image'], output_domain: ['video'] },
  { id: 'animation', title: 'Animate characters', input_domain: ['image'], output_domain: ['Animation'] },
  { id: 'lipsync', title: 'Lip sync', input_domain: ['Video ', 'audio-'], output_domain: ['video'] },
  { id: 'captioning', title: 'Describe images', input_domain: ['image'], output_domain: ['text'] },
  { id: 'ocr', title: 'Read text in images', input_domain: ['image'], output_domain: ['text'] },
  { id: 'embeddings', title: 'Text embeddings', input_domain: ['text'], output_domain: ['MISC'] },
];
