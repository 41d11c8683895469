import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createModelRuntimes } from '../../../../reference-app/server/runtimes/models';
import { loadModelsConfig } from '../../../../reference-app/server/runtimes/models/config';
import { linesFromTsv } from '../../../../reference-app/server/runtimes/models/ocr';
import { createLimiter, locate } from '../../../../reference-app/server/runtimes/models/tool';
import { finishWav } from '../../../../reference-app/server/runtimes/models/voice';
import { parseCascade } from '../../../../reference-app/server/runtimes/models/detect';
import { wavToPcm, wordsFromSphinx } from '../../../../reference-app/server/runtimes/models/transcribe';

// The local model runtime's own rules (runtimes/models): turns per model, Tesseract's TSV as
// lines of words, eSpeak's streamed WAV header made true, and which services it takes.

describe('createLimiter', () => {
  it('runs at most `limit` at once, in order, and hands a finished slot to the next in line', async () => {
    const limiter = createLimiter(1);
    const order: string[] = [];
    let release!: () => void;
    const first = limiter.run(new AbortController().signal, () => new Promise<void>((r) => (release = () => (order.push('a'), r()))));
    const second = limiter.run(new AbortController().signal, async () => void order.push('b'));
    expect(limiter.load).toBe(2);
    await new Promise((r) => setImmediate(r));
    // A newcomer after the release must not slip in before the one already waiting.
    release();
    const third = limiter.run(new AbortController().signal, async () => void order.push('c'));
    await Promise.all([first, second, third]);
    expect(order).toEqual(['a', 'b', 'c']);
    expect(limiter.load).toBe(0);
  });

  it('lets a cancelled job leave the line with its abort reason', async () => {
    const limiter = createLimiter(1);
    let release!: () => void;
    const running = limiter.run(new AbortController().signal, () => new Promise<void>((r) => (release = r)));
    const cancel = new AbortController();
    const waiting = limiter.run(cancel.signal, async () => 'ran');
    await new Promise((r) => setImmediate(r));
    cancel.abort(new Error('cancelled'));
    await expect(waiting).rejects.toThrow('cancelled');
    expect(limiter.load).toBe(1);
    release();
    await running;
    expect(limiter.load).toBe(0);
  });
});

describe('linesFromTsv', () => {
  it('groups level-5 rows into lines with boxes spanning their words and a mean confidence', () => {
    const tsv = [
      'level\tpage_num\tblock_num\tpar_num\tline_num\tword_num\tleft\ttop\twidth\theight\tconf\ttext',
      '4\t1\t1\t1\t1\t0\t10\t10\t200\t40\t-1\t',
      '5\t1\t1\t1\t1\t1\t10\t12\t80\t30\t90\tLimes',
      '5\t1\t1\t1\t1\t2\t100\t10\t110\t40\t80\tgreen',
      '5\t1\t1\t1\t2\t1\t10\t60\t50\t30\t70.25\tsour',
      '5\t1\t1\t1\t2\t2\t70\t60\t5\t30\t10\t ',
    ].join('\n');
    expect(linesFromTsv(tsv)).toEqual([
      {
        text: 'Limes green',
        bbox: [10, 10, 200, 40],
        confidence: 85,
        words: [
          { text: 'Limes', bbox: [10, 12, 80, 30], confidence: 90 },
          { text: 'green', bbox: [100, 10, 110, 40], confidence: 80 },
        ],
      },
      { text: 'sour', bbox: [10, 60, 50, 30], confidence: 70.3, words: [{ text: 'sour', bbox: [10, 60, 50, 30], confidence: 70.3 }] },
    ]);
  });
});

describe('finishWav', () => {
  it('writes the true RIFF and data sizes over the placeholders of a streamed WAV', () => {
    const wav = Buffer.alloc(44 + 2000);
    wav.write('RIFF', 0, 'latin1');
    wav.writeUInt32LE(0x7fffffff, 4);
    wav.write('WAVEfmt ', 8, 'latin1');
    wav.writeUInt32LE(16, 16);
    wav.writeUInt16LE(1, 20);
    wav.writeUInt16LE(1, 22);
    wav.writeUInt32LE(1000, 24);
    wav.writeUInt32LE(2000, 28);
    wav.writeUInt16LE(2, 32);
    wav.writeUInt16LE(16, 34);
    wav.write('data', 36, 'latin1');
    wav.writeUInt32LE(0x7fffffff, 40);
    const { sampleRate, seconds } = finishWav(wav);
    expect({ sampleRate, seconds, riff: wav.readUInt32LE(4), data: wav.readUInt32LE(40) }).toEqual({
      sampleRate: 1000,
      seconds: 1,
      riff: 2036,
      data: 2000,
    });
    expect(() => finishWav(Buffer.from('not a wav file at all, not at all, no, not at all'))).toThrow('did not write a WAV');
  });
});

describe('wordsFromSphinx', () => {
  it('keeps the word lines of -time output, without fillers, naming alternative pronunciations by their word', () => {
    const output = [
      'i would like boston',
      '<s> 0.000 0.020 0.999400',
      'i 0.030 0.210 0.973845',
      'would 0.220 0.390 0.830422',
      '<sil> 0.700 0.760 0.995709',
      '[NOISE] 0.770 0.800 0.5',
      'like 0.400 0.690 0.999500',
      'boston(2) 1.850 2.300 0.000692',
      '</s> 3.350 3.770 1.000000',
    ].join('\n');
    expect(wordsFromSphinx(output)).toEqual([
      { word: 'i', start_s: 0.03, end_s: 0.21, confidence: 0.974 },
      { word: 'would', start_s: 0.22, end_s: 0.39, confidence: 0.83 },
      { word: 'like', start_s: 0.4, end_s: 0.69, confidence: 1 },
      { word: 'boston', start_s: 1.85, end_s: 2.3, confidence: 0.001 },
    ]);
  });
});

describe('wavToPcm', () => {
  const wav = (channels: number, rate: number, bits: number, frames: number[][]) => {
    const width = bits / 8;
    const data = Buffer.alloc(frames.length * channels * width);
    frames.flat().forEach((v, i) => (bits === 8 ? data.writeUInt8(v, i) : data.writeInt16LE(v, i * 2)));
    const head = Buffer.alloc(44);
    head.write('RIFFxxxxWAVEfmt ', 0, 'latin1');
    head.writeUInt32LE(16, 16);
    head.writeUInt16LE(1, 20);
    head.writeUInt16LE(channels, 22);
    head.writeUInt32LE(rate, 24);
    head.writeUInt16LE(bits, 34);
    head.write('data', 36, 'latin1');
    head.writeUInt32LE(data.length, 40);
    return new Uint8Array(Buffer.concat([head, data]));
  };
  const run = async (bytes: Uint8Array, rate = 16_000, maxSeconds = 10) =>
    (await wavToPcm({ bytes, rate, maxSeconds }, null as never, {})).value;

  it('mixes stereo to mono and halves a 32 kHz recording by averaging sample pairs', async () => {
    const out = await run(
      wav(2, 32_000, 16, [
        [1000, 3000],
        [3000, 5000],
        [-2000, -2000],
        [0, 0],
      ]),
    );
    expect(out.seconds).toBeCloseTo(4 / 32_000);
    expect([...new Int16Array(out.pcm!.buffer)]).toEqual([3000, -1000]);
  });

  it('reads 8-bit unsigned samples and interpolates going up', async () => {
    const out = await run(wav(1, 8000, 8, [[128], [192]]));
    expect([...new Int16Array(out.pcm!.buffer)]).toEqual([0, 8192, 16384, 16384]);
  });

  it('refuses what is not a WAV, compressed WAV and recordings over the limit', async () => {
    expect((await run(new Uint8Array(Buffer.from('ID3'.padEnd(60, ' '))))).refused).toBe('must be a WAV file (RIFF/WAVE)');
    const compressed = wav(1, 8000, 16, [[0]]);
    compressed[20] = 85; // MPEG layer 3 inside a WAV
    expect((await run(compressed)).refused).toBe('must be PCM (8, 16, 24 or 32 bits) or 32-bit float WAV, not format 85 with 16 bits');
    expect(
      (
        await run(
          wav(
            1,
            8000,
            16,
            Array.from({ length: 16_001 }, () => [0]),
          ),
          16_000,
          2,
        )
      ).refused,
    ).toBe('is 2 s long; at most 2 s are transcribed');
  });
});

describe('parseCascade', () => {
  const xml = `<opencv_storage><cascade type_id="opencv-cascade-classifier"><stageType>BOOST</stageType>
    <featureType>HAAR</featureType><height>20</height><width>10</width><stages>
    <_><maxWeakCount>1</maxWeakCount><stageThreshold>-1.5</stageThreshold><weakClassifiers>
      <_><internalNodes>0 -1 1 2.5e-01</internalNodes><leafValues>-1. 1.</leafValues></_></weakClassifiers></_>
    </stages><features>
      <_><rects><_>0 0 10 20 -1.</_><_>0 10 10 10 2.</_></rects></_>
      <_><rects><_>1 2 3 4 -1.</_><_>1 4 3 2 2.</_><_>1 2 1 1 3.</_></rects></_>
    </features></cascade></opencv_storage>`;

  it('reads stages, trees, leaves and up to three weighted rectangles per feature', () => {
    const c = parseCascade(xml);
    expect([c.width, c.height]).toEqual([10, 20]);
    expect([...c.stageThresholds]).toEqual([-1.5 - 1e-5]);
    expect([...c.stageWeak, ...c.weak, ...c.nodes]).toEqual([0, 1, 0, 0, 0, -1, 1]);
    expect([...c.nodeThresholds, ...c.leaves]).toEqual([0.25, -1, 1]);
    expect([...c.rects.subarray(12, 24)]).toEqual([1, 2, 3, 4, 1, 4, 3, 2, 1, 2, 1, 1]);
    expect([...c.weights]).toEqual([-1, 2, 0, -1, 2, 3]);
  });

  it('refuses a cascade of tilted features or of another kind, by name', () => {
    expect(() => parseCascade(xml.replace('</rects></_>\n      <_>', '</rects><tilted>1</tilted></_>\n      <_>'), 'eye')).toThrow(
      'eye uses tilted features, which are not evaluated here',
    );
    expect(() => parseCascade(xml.replace('HAAR', 'LBP'), 'lbp')).toThrow('lbp is not a Haar cascade');
  });
});

describe('createModelRuntimes', () => {
  it('takes only the real services, none with LOCAL_MODELS=off, and says why a missing program sends a service to the demo', () => {
    const missing = createModelRuntimes(loadModelsConfig({ TESSERACT_PATH: '/nonexistent/tesseract' }));
    expect(missing.runtimeFor('lime-ocr')).toBeUndefined();
    expect(missing.status('lime-ocr')?.detail).toBe(
      'Runs on the local demo runtime: /nonexistent/tesseract is not installed (not found on PATH or at that path)',
    );
    expect(missing.runtimeFor('lime-cutout')?.name).toBe('local');
    expect(missing.runtimeFor('lime-diffusion-xl')).toBeUndefined();
    expect(missing.status('lime-diffusion-xl')).toBeUndefined();
    const off = createModelRuntimes(loadModelsConfig({ LOCAL_MODELS: 'off' }));
    expect(off.runtimeFor('lime-cutout')).toBeUndefined();
    expect(off.status('lime-cutout')?.available).toBe(false);
    expect(() => loadModelsConfig({ LOCAL_MODEL_CONCURRENCY: '0' })).toThrow(/LOCAL_MODEL_CONCURRENCY/);
    // A model whose program is there but whose data is not (Debian's pocketsphinx without pocketsphinx-en-us).
    const noData = createModelRuntimes(loadModelsConfig({ POCKETSPHINX_PATH: '/bin/sh', OPENCV_CASCADES_DIR: '/nonexistent' }));
    expect(noData.runtimeFor('lime-vision')).toBeUndefined();
    expect(noData.status('lime-vision')?.detail).toBe(
      "Runs on the local demo runtime: /nonexistent/haarcascade_frontalface_alt2.xml is not installed (the model's data file is missing)",
    );
  });

  it('finds programs by path or on the search path only when executable', () => {
    expect(locate('sh', '/nonexistent:/bin')).toBe('/bin/sh');
    expect(locate('/bin/sh', '')).toBe('/bin/sh');
    expect(locate('sh', '/nonexistent')).toBeUndefined();
    const plain = path.join(mkdtempSync(path.join(tmpdir(), 'locate-')), 'tool');
    writeFileSync(plain, '#!/bin/sh\n', { mode: 0o644 });
    expect(locate(plain, '')).toBeUndefined();
    chmodSync(plain, 0o755);
    expect(locate(plain, '')).toBe(plain);
    rmSync(path.dirname(plain), { recursive: true });
  });
});
