import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { movable, runInThread, type ThreadTask } from '../../http/dataThread';
import type { RunResult } from '../runtime';
import { bool, fileRef, invalid } from '../local/inputs';
import type { ModelTool } from './model';
import { runTool } from './tool';

// lime-whisper: CMU PocketSphinx (BSD-2-Clause; Debian's pocketsphinx with the pocketsphinx-en-us
// acoustic model, language model and dictionary) transcribes US English speech. It is a
// 2015-era HMM recogniser with a 130 000-word dictionary: clear read speech comes back mostly
// right, noisy, accented or fast speech much less so; one language, no translation, no speakers.
// The upload (a WAV file of any rate, 8 to 32 bits, mono or stereo) is mixed to mono and
// resampled to the 16 kHz the model was trained on in a worker thread; the recogniser runs as
// its own process under the memory ceiling, and loads its 40 MB model on each run (about 1 s of CPU).

export const MAX_TRANSCRIBE_SECONDS = 120;
const MODEL_RATE = 16_000;

interface PcmInput {
  bytes: Uint8Array;
  maxSeconds: number;
  rate: number;
}
interface PcmOutput {
  pcm?: Uint8Array;
  seconds: number;
  /** What is wrong with the file, said to the caller as `audio: …`. */
  refused?: string;
}

/**
 * A WAV file as 16-bit mono PCM at `rate` (self-contained: it runs as source text in its own
 * thread). Mixing averages the channels; resampling averages the source samples each output
 * sample spans (a box filter: enough against aliasing for speech going down to 16 kHz) and
 * interpolates linearly going up.
 */
export const wavToPcm: ThreadTask<PcmInput, PcmOutput> = async ({ bytes, maxSeconds, rate: outRate }) => {
  const refuse = (refused: string) => ({ value: { refused, seconds: 0 } });
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const tag = (at: number) => String.fromCharCode(bytes[at]!, bytes[at + 1]!, bytes[at + 2]!, bytes[at + 3]!);
  if (bytes.length < 44 || tag(0) !== 'RIFF' || tag(8) !== 'WAVE') return refuse('must be a WAV file (RIFF/WAVE)');
  let format = 0;
  let channels = 0;
  let rate = 0;
  let bits = 0;
  let dataAt = -1;
  let dataBytes = 0;
  for (let at = 12; at + 8 <= bytes.length;) {
    const size = view.getUint32(at + 4, true);
    if (tag(at) === 'fmt ' && at + 24 <= bytes.length) {
      format = view.getUint16(at + 8, true);
      channels = view.getUint16(at + 10, true);
      rate = view.getUint32(at + 12, true);
      bits = view.getUint16(at + 22, true);
      // WAVE_FORMAT_EXTENSIBLE: the real format is the sub-format's first two bytes.
      if (format === 0xfffe && at + 34 <= bytes.length) format = view.getUint16(at + 32, true);
    } else if (tag(at) === 'data') {
      dataAt = at + 8;
      // A streamed WAV (espeak-ng --stdout, a recorder cut short) has a placeholder size: take what is there.
      dataBytes = Math.min(size, bytes.length - dataAt);
      break;
    }
    at += 8 + size + (size % 2);
  }
  const pcm = format === 1 && [8, 16, 24, 32].includes(bits);
  const float = format === 3 && bits === 32;
  if (!pcm && !float) return refuse(`must be PCM (8, 16, 24 or 32 bits) or 32-bit float WAV, not format ${format} with ${bits} bits`);
  if (channels < 1 || rate < 4000 || rate > 192_000) return refuse(`has ${channels} channels at ${rate} Hz, which cannot be speech`);
  if (dataAt < 0) return refuse('has no samples (no data chunk)');
  const width = bits / 8;
  const frames = Math.floor(dataBytes / (width * channels));
  const seconds = frames / rate;
  if (seconds > maxSeconds) return refuse(`is ${Math.round(seconds)} s long; at most ${maxSeconds} s are transcribed`);
  const sample = (at: number) => {
    if (float) return view.getFloat32(at, true);
    if (bits === 8) return (bytes[at]! - 128) / 128;
    if (bits === 16) return view.getInt16(at, true) / 32768;
    if (bits === 24) return (bytes[at]! | (bytes[at + 1]! << 8) | (view.getInt8(at + 2) << 16)) / 8388608;
    return view.getInt32(at, true) / 2147483648;
  };
  const mono = new Float32Array(frames);
  for (let f = 0; f < frames; f++) {
    let sum = 0;
    for (let c = 0; c < channels; c++) sum += sample(dataAt + (f * channels + c) * width);
    mono[f] = sum / channels;
  }
  const ratio = rate / outRate;
  const out = new Int16Array(Math.floor(frames / ratio));
  for (let i = 0; i < out.length; i++) {
    let value: number;
    if (ratio > 1) {
      const from = Math.floor(i * ratio);
      const to = Math.min(frames, Math.max(from + 1, Math.floor((i + 1) * ratio)));
      let sum = 0;
      for (let j = from; j < to; j++) sum += mono[j]!;
      value = sum / (to - from);
    } else {
      const at = i * ratio;
      const j = Math.floor(at);
      value = mono[j]! + (mono[Math.min(frames - 1, j + 1)]! - mono[j]!) * (at - j);
    }
    out[i] = Math.max(-32768, Math.min(32767, Math.round(value * 32767)));
  }
  const bytesOut = new Uint8Array(out.buffer);
  return { value: { pcm: bytesOut, seconds }, transfer: [out.buffer] };
};

export interface Word {
  word: string;
  start_s: number;
  end_s: number;
  confidence: number;
}

/**
 * pocketsphinx_continuous's output with `-time yes`: for each utterance a line with its text, then
 * a line per word, `word start end probability`. Silences, fillers (<s>, <sil>, [NOISE]) are
 * dropped, and alternative pronunciations (`boston(2)`) named by their word.
 */
export function wordsFromSphinx(output: string): Word[] {
  const words: Word[] = [];
  for (const line of output.split('\n')) {
    const cells = line.trim().split(/\s+/);
    if (cells.length !== 4 || !cells.slice(1).every((c) => /^-?\d+(\.\d+)?$/.test(c))) continue;
    const word = cells[0]!.replace(/\(\d+\)$/, '');
    if (/^[<[]/.test(word)) continue;
    const [start, end, probability] = cells.slice(1).map(Number) as [number, number, number];
    words.push({ word, start_s: start, end_s: end, confidence: Math.round(probability * 1000) / 1000 });
  }
  return words;
}

const modelFiles = (dir: string) => ({
  hmm: path.join(dir, 'en-us'),
  lm: path.join(dir, 'en-us.lm.bin'),
  dict: path.join(dir, 'cmudict-en-us.dict'),
});

export const transcribeModel: ModelTool = {
  service: 'lime-whisper',
  endpoint: '/transcribe',
  model: 'CMU PocketSphinx 5prealpha, US English (pocketsphinx-en-us)',
  binary: (config) => config.pocketsphinx,
  files: (config) => {
    const { hmm, lm, dict } = modelFiles(config.pocketsphinxModel);
    return [path.join(hmm, 'mdef'), lm, dict];
  },
  // The program has no version switch and loads its model on each run: loading here is finding the files.
  load: async (_binary, { config }) => ({ version: 'pocketsphinx 5prealpha', ...modelFiles(config.pocketsphinxModel) }),
  async run(input, ctx, { binary, loaded, memoryMb, onStart }): Promise<RunResult> {
    const timestamps = bool(input, 'timestamps', true);
    if (input.language !== undefined && input.language !== null && input.language !== '' && !/^en(-us)?$/i.test(String(input.language))) {
      throw invalid('language', `only English ("en") is installed here, not ${JSON.stringify(input.language)}`);
    }
    ctx.progress(0.1, 'Reading the recording');
    const file = await ctx.readFile(fileRef(input, 'audio'));
    const bytes = new Uint8Array(file.bytes.buffer.slice(file.bytes.byteOffset, file.bytes.byteOffset + file.bytes.byteLength));
    const decoded = await runInThread(
      wavToPcm,
      { bytes, maxSeconds: MAX_TRANSCRIBE_SECONDS, rate: MODEL_RATE },
      { transfer: movable(bytes), signal: ctx.signal, resourceLimits: { maxOldGenerationSizeMb: memoryMb } },
    );
    if (decoded.refused) throw invalid('audio', decoded.refused);
    ctx.progress(0.3, `Recognising ${Math.round(decoded.seconds * 10) / 10} s of speech`);
    // The recording goes through a file: the child's standard input is a socket, which the
    // program cannot open by name (/dev/stdin), and it reads nothing else.
    const dir = await mkdtemp(path.join(tmpdir(), 'lime-whisper-'));
    const raw = path.join(dir, 'speech.raw');
    await writeFile(raw, decoded.pcm!);
    const output = await runTool(
      binary,
      [
        '-infile',
        raw,
        '-hmm',
        String(loaded.hmm),
        '-lm',
        String(loaded.lm),
        '-dict',
        String(loaded.dict),
        '-samprate',
        String(MODEL_RATE),
        '-time',
        'yes',
      ],
      { signal: ctx.signal, memoryMb, maxOutputBytes: 4 * 1024 * 1024, onStart },
    ).finally(() => rm(dir, { recursive: true, force: true }));
    const words = wordsFromSphinx(output.toString('utf8'));
    ctx.progress(0.95, `Heard ${words.length} word${words.length === 1 ? '' : 's'}`);
    return {
      text: words.map((w) => w.word).join(' '),
      language: 'en',
      duration_s: Math.round(decoded.seconds * 100) / 100,
      ...(timestamps ? { words } : {}),
      engine: `${loaded.version} (CMU Sphinx US English model)`,
    };
  },
};
