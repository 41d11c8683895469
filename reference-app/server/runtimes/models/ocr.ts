import { checkImageHeader, ImageRefusedError } from '../../media/imageDecode';
import { MAX_IMAGE_PIXELS } from '../../media/imageHeader';
import type { RunContext, RunResult } from '../runtime';
import { fileRef, invalid } from '../local/inputs';
import { runTool } from './tool';
import type { ModelTool } from './model';

// lime-ocr: Tesseract 5 (LSTM engine, Apache-2.0) reads the image; its TSV output gives every
// word with its box and confidence, grouped here into lines. The image's header is checked by the
// platform first (the same formats and pixel limit as every image input).

type Box = [x: number, y: number, width: number, height: number];
interface Word {
  text: string;
  bbox: Box;
  confidence: number;
}
interface Line {
  text: string;
  bbox: Box;
  confidence: number;
  words: Word[];
}

/** ISO 639-1 codes people send, as Tesseract's traineddata names; three-letter names pass as they are. */
const TESSERACT_CODES: Record<string, string> = { en: 'eng', de: 'deu', fr: 'fra', es: 'spa', it: 'ita', pt: 'por', nl: 'nld' };
const toTesseract = (code: string) => TESSERACT_CODES[code.toLowerCase()] ?? code.toLowerCase();

/** The languages installed beside the binary (`tesseract --list-langs`), minus orientation detection. */
export async function installedLanguages(binary: string, signal: AbortSignal, memoryMb: number): Promise<string[]> {
  const listed = await runTool(binary, ['--list-langs'], { signal, memoryMb, maxOutputBytes: 64 * 1024 });
  return listed
    .toString('utf8')
    .split('\n')
    .slice(1)
    .map((l) => l.trim())
    .filter((l) => l && l !== 'osd');
}

function languagesOf(input: Record<string, unknown>, installed: readonly string[]): string[] {
  const given = input.languages ?? ['en'];
  if (!Array.isArray(given) || given.length === 0 || given.some((l) => typeof l !== 'string' || !/^[a-z_]{2,12}$/i.test(l))) {
    throw invalid('languages', 'must be a non-empty array of language codes such as "en"');
  }
  const missing = given.filter((l) => !installed.includes(toTesseract(l as string)));
  if (missing.length > 0) {
    throw invalid(
      'languages',
      `${missing.join(', ')} ${missing.length === 1 ? 'is' : 'are'} not installed here; installed: ${installed.join(', ')}`,
    );
  }
  return given as string[];
}

/** Tesseract's TSV (level 5 rows are words) as lines of words, with boxes in the image's pixels. */
export function linesFromTsv(tsv: string): Line[] {
  const lines = new Map<string, Word[]>();
  for (const row of tsv.split('\n').slice(1)) {
    const cells = row.split('\t');
    if (cells[0] !== '5' || cells.length < 12) continue;
    const text = cells.slice(11).join('\t').trim();
    if (!text) continue;
    const [left, top, width, height, confidence] = cells.slice(6, 11).map(Number);
    const key = cells.slice(1, 5).join('.'); // page.block.paragraph.line
    const words = lines.get(key) ?? [];
    words.push({ text, bbox: [left, top, width, height], confidence: Math.round(confidence * 10) / 10 });
    lines.set(key, words);
  }
  return [...lines.values()].map((words) => {
    const x0 = Math.min(...words.map((w) => w.bbox[0]));
    const y0 = Math.min(...words.map((w) => w.bbox[1]));
    const x1 = Math.max(...words.map((w) => w.bbox[0] + w.bbox[2]));
    const y1 = Math.max(...words.map((w) => w.bbox[1] + w.bbox[3]));
    const confidence = Math.round((words.reduce((s, w) => s + w.confidence, 0) / words.length) * 10) / 10;
    return { text: words.map((w) => w.text).join(' '), bbox: [x0, y0, x1 - x0, y1 - y0], confidence, words };
  });
}

/**
 * The image input after the platform's own header check (a format it accepts, the pixel limit),
 * handed to Tesseract as it is: Leptonica decodes it in Tesseract's process, under its ceiling,
 * not on the server's threads.
 */
async function imageOf(ctx: RunContext, input: Record<string, unknown>) {
  const file = await ctx.readFile(fileRef(input, 'image'));
  try {
    return { bytes: file.bytes, ...checkImageHeader(file.bytes, MAX_IMAGE_PIXELS) };
  } catch (cause) {
    if (cause instanceof ImageRefusedError) throw invalid('image', cause.message, cause);
    throw cause;
  }
}

export const ocrModel: ModelTool = {
  service: 'lime-ocr',
  endpoint: '/read',
  model: 'Tesseract 5 LSTM, English (tesseract-ocr-eng)',
  binary: (config) => config.tesseract,
  async load(binary, { memoryMb }) {
    const signal = AbortSignal.timeout(10_000);
    const version = (await runTool(binary, ['--version'], { signal, memoryMb, maxOutputBytes: 64 * 1024 })).toString('utf8');
    return { version: version.split('\n')[0]!.trim(), languages: await installedLanguages(binary, signal, memoryMb) };
  },
  async run(input, ctx, { binary, loaded, memoryMb, onStart }): Promise<RunResult> {
    const installed = loaded.languages as string[];
    const languages = languagesOf(input, installed);
    ctx.progress(0.1, 'Reading the image');
    const { bytes, format, width, height } = await imageOf(ctx, input);
    ctx.progress(0.3, `Recognising text with ${loaded.version}`);
    const tsv = await runTool(binary, ['stdin', 'stdout', '-l', [...new Set(languages.map(toTesseract))].join('+'), 'tsv'], {
      stdin: bytes,
      signal: ctx.signal,
      memoryMb,
      // One thread per run: LOCAL_MODEL_CONCURRENCY decides how many cores OCR takes.
      env: { OMP_THREAD_LIMIT: '1' },
      maxOutputBytes: 16 * 1024 * 1024,
      onStart,
    }).catch((error: unknown) => {
      // Leptonica's words for a file whose header passed but whose data is broken.
      if (/pixRead|no pix returned|Error during processing/.test((error as Error).message))
        throw invalid('image', `could not be decoded as ${format.toUpperCase()}`, error);
      throw error;
    });
    const lines = linesFromTsv(tsv.toString('utf8'));
    ctx.progress(0.95, `Read ${lines.length} line${lines.length === 1 ? '' : 's'}`);
    return {
      text: lines.map((l) => l.text).join('\n'),
      languages,
      width,
      height,
      lines,
      engine: loaded.version,
    };
  },
};
