import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { validateJobInput } from '../../../../src/run/validate';
import {
  EXAMPLE_MEDIA_PATH,
  exampleContentType,
  exampleMediaDir,
  readExampleMedia,
} from '../../../../reference-app/server/media/exampleMedia';
import { textCover, wavSamples, waveformCover } from '../../../../reference-app/server/seed/exampleCovers';
import { ENDPOINTS } from '../../../../reference-app/server/seed/endpoints';
import { EXAMPLE_INPUTS, SPEECH_RECORDING, SPEECH_RECORDING_TEXT } from '../../../../reference-app/server/seed/exampleInputs';
import { exampleCover, withExample } from '../../../../reference-app/server/media/examples';
import { SEED_MODELS } from '../../../../reference-app/server/seed/models';

// The seeded examples (issue 38, item 3): every service's Playground opens on an example whose
// input the server accepts and whose media exist, and its card shows a picture of the output.

const dir = exampleMediaDir(process.cwd(), '/nonexistent');

/** Every /media/examples/ URL in a value (input, result). */
function exampleUrls(value: unknown): string[] {
  if (typeof value === 'string') return value.startsWith(EXAMPLE_MEDIA_PATH) ? [value] : [];
  if (!value || typeof value !== 'object') return [];
  return Object.values(value).flatMap(exampleUrls);
}

describe('seeded examples', () => {
  // A kind without an example (a model still being added) keeps its drawn initials; every kind
  // given an example input must have been run (npm run examples).
  const kinds = [...new Set(SEED_MODELS.map((m) => m.kind))].filter(
    (kind) => exampleCover(kind) !== undefined || EXAMPLE_INPUTS.some(([k]) => k === kind),
  );

  it('covers the seed: most kinds, the three real models among them', () => {
    expect(kinds.length).toBeGreaterThanOrEqual(21);
    expect(kinds).toEqual(expect.arrayContaining(['lime-ocr', 'lime-voice', 'lime-cutout', 'llm', 'text2img']));
  });

  it.each(kinds)('%s: an example the server accepts, with its media in the repository and a cover', (kind) => {
    const [first] = withExample(kind, ENDPOINTS[kind] ?? []);
    expect(first?.example, `${kind} has no example: run npm run examples`).toBeDefined();
    const { input = {}, result } = first!.example!;
    expect(validateJobInput(first!, input)).toMatchObject({ valid: true });
    for (const url of [...exampleUrls(input), ...exampleUrls(result), exampleCover(kind)!]) {
      expect(existsSync(path.join(dir, url.slice(EXAMPLE_MEDIA_PATH.length))), url).toBe(true);
      expect(exampleContentType(url.slice(EXAMPLE_MEDIA_PATH.length)), url).toMatch(/^(image|audio|model)\//);
    }
    // A card's picture is a small WebP thumbnail of the output (budgets.spec.ts counts every byte
    // a page of cards moves), never the full output.
    expect(exampleCover(kind)).toMatch(/-cover\.webp$/);
    expect(statSync(path.join(dir, exampleCover(kind)!.slice(EXAMPLE_MEDIA_PATH.length))).size).toBeLessThan(20 * 1024);
  });

  it('the real models made their examples: speech from eSpeak NG, a transparent cutout', async () => {
    const [voice] = withExample('lime-voice', ENDPOINTS['lime-voice']!);
    expect(voice!.example).toMatchObject({ runtime: 'local', result: { audio: { content_type: 'audio/wav' }, language: 'en-us' } });
    expect(voice!.example!.run_seconds).toBeGreaterThan(0);
    const wav = await readExampleMedia(dir, 'lime-voice-audio.wav');
    expect(wavSamples(wav!.bytes).length).toBeGreaterThan(22_050); // over a second of speech
    const [cutout] = withExample('lime-cutout', ENDPOINTS['lime-cutout']!);
    expect(cutout!.example).toMatchObject({ input: { image: `${EXAMPLE_MEDIA_PATH}product-shot.png` } });
    const png = await readExampleMedia(dir, 'lime-cutout-image.png');
    // PNG colour type 6: RGBA, the backdrop made transparent.
    expect(png!.bytes[25]).toBe(6);
  });

  it('the transcriber and the face detector made theirs: every word right with its times, a face with two eyes', () => {
    const [whisper] = withExample('lime-whisper', ENDPOINTS['lime-whisper']!);
    expect(whisper!.example).toMatchObject({ runtime: 'local', input: { audio: `${EXAMPLE_MEDIA_PATH}${SPEECH_RECORDING}` } });
    const heard = whisper!.example!.result as { text: string; words: { word: string; start_s: number }[] };
    // The example shows the transcriber right: what the recording says, word for word.
    expect(heard.text).toBe(SPEECH_RECORDING_TEXT);
    expect(heard.words.map((w) => w.word).join(' ')).toBe(SPEECH_RECORDING_TEXT);
    const [vision] = withExample('lime-vision', ENDPOINTS['lime-vision']!);
    expect(vision!.example).toMatchObject({ runtime: 'local', input: { image: `${EXAMPLE_MEDIA_PATH}astronaut.jpg` } });
    const seen = vision!.example!.result as { objects: { label: string }[] };
    expect(seen.objects.map((o) => o.label).sort()).toEqual(['eye', 'eye', 'face']);
  });

  it("keeps a template's own example (lime-ocr, the chat) and adds its run time only where it was timed", () => {
    const [ocr] = withExample('lime-ocr', ENDPOINTS['lime-ocr']!);
    expect(ocr!.example).toEqual({ ...ENDPOINTS['lime-ocr']![0]!.example, runtime: 'local', run_seconds: expect.any(Number) });
    // The chat's reply is the demo runtime's: its example is labelled as a demo output, untimed.
    expect(withExample('llm', ENDPOINTS.llm!)[0]!.example).toEqual({ ...ENDPOINTS.llm![0]!.example, runtime: 'local-demo' });
    expect(withExample('no-such-kind', ENDPOINTS['lime-ocr']!)[0]).toBe(ENDPOINTS['lime-ocr']![0]);
  });
});

describe('example media', () => {
  it('names are slugs with a known extension: no path tricks', async () => {
    expect(exampleContentType('lime-voice-audio.wav')).toBe('audio/wav');
    for (const bad of ['../package.json', '..%2Fsecret.png', 'a/b.png', '.hidden.png', 'x.exe', 'X.PNG']) {
      expect(exampleContentType(bad), bad).toBeUndefined();
      expect(await readExampleMedia(dir, bad), bad).toBeUndefined();
    }
    expect(await readExampleMedia(dir, 'missing-file.png')).toBeUndefined();
  });

  it('covers draw the output: a waveform of a WAV, the words of a text', async () => {
    const wav = await readExampleMedia(dir, 'tts-audio.wav');
    for (const cover of [await waveformCover(wav!.bytes), await textCover('Limes “are” green… — sour')]) {
      expect([...cover.subarray(1, 4)].map((c) => String.fromCharCode(c)).join('')).toBe('PNG');
    }
    expect(wavSamples(new Uint8Array(10))).toHaveLength(0);
  });
});
