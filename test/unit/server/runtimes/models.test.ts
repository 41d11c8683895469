import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createModelRuntimes } from '../../../../reference-app/server/runtimes/models';
import { loadModelsConfig } from '../../../../reference-app/server/runtimes/models/config';
import { linesFromTsv } from '../../../../reference-app/server/runtimes/models/ocr';
import { createLimiter, locate } from '../../../../reference-app/server/runtimes/models/tool';
import { finishWav } from '../../../../reference-app/server/runtimes/models/voice';

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
