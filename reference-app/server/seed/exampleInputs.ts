import { EXAMPLE_MEDIA_PATH } from '../media/exampleMedia';

// What each endpoint template's example runs on (issue 38, item 3): the input a visitor's
// Playground opens with, and which `npm run examples` (makeExamples.ts) runs once to record the
// output shown beside it. File inputs are example media of this site (media/exampleMedia.ts):
// a picture the generator draws, or the output of an earlier example (the voice's speech is the
// transcriber's recording), so the generator runs the kinds in this order.

/** The example media file `name` as a file input (served at /media/examples/<name>). */
export const exampleFile = (name: string) => `${EXAMPLE_MEDIA_PATH}${name}`;

/** Drawn by the generator: a lime with a leaf on a plain studio backdrop. */
export const PRODUCT_SHOT = 'product-shot.png';

/**
 * A photograph with a face for the face detector: the astronaut Eileen Collins, a NASA photograph
 * in the public domain, as shipped by scikit-image (test/fixtures/images/README.md); committed,
 * not generated.
 */
export const ASTRONAUT = 'astronaut.jpg';

/**
 * A clear recording of read English speech for the transcriber (lime-whisper): Flite's `awb`
 * voice, 16 kHz mono, made once with
 * `flite -voice awb -t "Good morning, and thank you for calling. Please call me tomorrow morning.
 * The weather today is sunny and warm." -o lime-whisper-speech.wav`; committed, not generated.
 * The speech lime-voice makes (eSpeak NG) is not used: PocketSphinx's acoustic model was trained
 * on recorded voices and gets most of eSpeak's words wrong, so it would be an example of the
 * transcriber failing.
 */
export const SPEECH_RECORDING = 'lime-whisper-speech.wav';

/** What SPEECH_RECORDING says, as the transcriber must give it back. */
export const SPEECH_RECORDING_TEXT =
  'good morning and thank you for calling please call me tomorrow morning the weather today is sunny and warm';

/** Example inputs by endpoint template (seed/endpoints.ts), in the order they run. */
export const EXAMPLE_INPUTS: ReadonlyArray<readonly [kind: string, input: Record<string, unknown>]> = [
  ['lime-voice', { text: 'Fresh limes, picked this morning in Seville.', language: 'en-us', voice: 'female-1' }],
  ['lime-cutout', { image: exampleFile(PRODUCT_SHOT) }],
  ['lime-whisper', { audio: exampleFile(SPEECH_RECORDING), language: 'en', timestamps: true }],
  ['lime-vision', { image: exampleFile(ASTRONAUT) }],
  [
    'text2img',
    { prompt: 'A basket of fresh limes on a wooden table, morning light', width: 640, height: 400, num_inference_steps: 150, seed: 7 },
  ],
  ['tts', { text: 'Fresh limes, picked this morning.', voice: 'aria', format: 'wav' }],
  ['text2video', { prompt: 'Limes rolling across a kitchen counter', duration_s: 1, fps: 8, resolution: '480p', seed: 7 }],
  ['3d', { prompt: 'A ripe lime', output_format: 'glb', texture_resolution: 512 }],
  ['face-swap', { source_image: exampleFile('lime-cutout-image.png'), target_image: exampleFile(PRODUCT_SHOT) }],
  ['voice-cloning', { reference_audio: exampleFile('lime-voice-audio.wav'), text: 'A kilo of limes, please.', language: 'en' }],
  ['background-removal', { image: exampleFile(PRODUCT_SHOT) }],
  ['img2img', { image: exampleFile('text2img-image.png'), prompt: 'as a watercolour painting', strength: 0.6 }],
  ['upscaling', { image: exampleFile(PRODUCT_SHOT), scale: 2 }],
  ['stt', { audio: exampleFile('lime-voice-audio.wav'), language: 'en' }],
  ['music', { prompt: 'Calm acoustic guitar, summer evening', duration_s: 6 }],
  ['img2video', { image: exampleFile('text2img-image.png'), frames: 8 }],
  ['animation', { character_image: exampleFile(PRODUCT_SHOT), pose_video: exampleFile('text2video-video.gif'), fps: 8 }],
  ['lipsync', { video: exampleFile('text2video-video.gif'), audio: exampleFile('tts-audio.wav') }],
  ['captioning', { image: exampleFile('text2img-image.png'), detail: 'short' }],
  ['ocr', { image: exampleFile('lime-ocr-image.png') }],
  ['embeddings', { input: ['Fresh limes', 'Sour citrus fruit'], dimensions: 256 }],
];
