import type { RunResult } from '../runtime';
import { choice, num, text } from '../local/inputs';
import type { ModelTool } from './model';
import { runTool } from './tool';

// lime-voice: eSpeak NG (GPL-3.0, run as its own program) speaks the text in the chosen
// language with one of its voice variants, as 16-bit mono WAV at 22 050 Hz. It is a formant
// synthesiser: clear and intelligible in 100+ languages, but robotic, not a studio voice.

/** The languages the service offers (eSpeak NG's voice names); the seed's enum lists the same. */
export const VOICE_LANGUAGES = [
  'en-us',
  'en-gb',
  'de',
  'fr-fr',
  'es',
  'it',
  'pt-br',
  'nl',
  'pl',
  'sv',
  'ru',
  'hi',
  'tr',
  'cmn',
  'ja',
] as const;
/** Voice variants by the names the service offers. */
export const VOICE_VARIANTS = {
  'male-1': 'm1',
  'male-2': 'm2',
  'male-3': 'm3',
  'female-1': 'f1',
  'female-2': 'f2',
  'female-3': 'f3',
} as const;
export const MAX_VOICE_TEXT = 2000;
/** eSpeak NG's words per minute at speed 1. */
const BASE_WPM = 175;

/** eSpeak writes its WAV to a pipe with placeholder sizes; the real ones, so players know the length. */
export function finishWav(wav: Buffer): { wav: Buffer; sampleRate: number; seconds: number } {
  if (wav.length < 44 || wav.toString('latin1', 0, 4) !== 'RIFF' || wav.toString('latin1', 8, 12) !== 'WAVE') {
    throw new Error('espeak-ng did not write a WAV file');
  }
  const sampleRate = wav.readUInt32LE(24);
  const blockAlign = wav.readUInt16LE(32);
  let at = 12;
  while (at + 8 <= wav.length && wav.toString('latin1', at, at + 4) !== 'data') at += 8 + wav.readUInt32LE(at + 4);
  if (at + 8 > wav.length) throw new Error('espeak-ng wrote a WAV file without samples');
  const dataBytes = wav.length - (at + 8);
  wav.writeUInt32LE(wav.length - 8, 4);
  wav.writeUInt32LE(dataBytes, at + 4);
  return { wav, sampleRate, seconds: dataBytes / blockAlign / sampleRate };
}

export const voiceModel: ModelTool = {
  service: 'lime-voice',
  endpoint: '/speak',
  model: 'eSpeak NG formant synthesiser (espeak-ng)',
  binary: (config) => config.espeak,
  async load(binary, { memoryMb }) {
    const signal = AbortSignal.timeout(10_000);
    const version = (await runTool(binary, ['--version'], { signal, memoryMb, maxOutputBytes: 64 * 1024 })).toString('utf8');
    const listed = (await runTool(binary, ['--voices'], { signal, memoryMb, maxOutputBytes: 256 * 1024 })).toString('utf8');
    const names = new Set(listed.split('\n').map((row) => row.trim().split(/\s+/)[1]));
    return { version: version.trim().split(':')[0]!, languages: VOICE_LANGUAGES.filter((l) => names.has(l)) };
  },
  async run(input, ctx, { binary, loaded, memoryMb, onStart }): Promise<RunResult> {
    const words = text(input, 'text', { required: true, max: MAX_VOICE_TEXT });
    const language = choice(input, 'language', loaded.languages as string[], 'en-us');
    const voice = choice(input, 'voice', Object.keys(VOICE_VARIANTS) as Array<keyof typeof VOICE_VARIANTS>, 'female-1');
    const speed = num(input, 'speed', { fallback: 1, min: 0.5, max: 2 });
    const pitch = num(input, 'pitch', { fallback: 50, min: 0, max: 99, integer: true });
    ctx.progress(0.1, `Speaking ${words.length} characters in ${language}`);
    const raw = await runTool(
      binary,
      [
        '--stdin',
        '--stdout',
        '-v',
        `${language}+${VOICE_VARIANTS[voice]}`,
        '-s',
        String(Math.round(BASE_WPM * speed)),
        '-p',
        String(pitch),
      ],
      { stdin: words, signal: ctx.signal, memoryMb, maxOutputBytes: 64 * 1024 * 1024, onStart },
    );
    const { wav, sampleRate, seconds } = finishWav(raw);
    ctx.progress(0.9, 'Storing the WAV');
    return {
      audio: await ctx.storeMedia(wav, 'audio/wav'),
      duration_s: Math.round(seconds * 100) / 100,
      sample_rate: sampleRate,
      language,
      voice,
      engine: loaded.version,
    };
  },
};
