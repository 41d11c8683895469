import { describe, expect, it } from 'vitest';
import { interpretAnswer } from '../../../../reference-app/server/runtimes/http/answers';
import {
  boundText,
  CUT_MARK,
  MESSAGE_MAX_CHARS,
  RuntimeError,
  SERVICE_WORDS_MAX_CHARS,
} from '../../../../reference-app/server/runtimes/runtime';
import { testContext } from './harness';

// Issue 47, finding 4: text a service reports (progress messages, errors, log lines) is bounded
// where the platform receives it, by one helper (runtime.ts, boundText; docs/jobs.md, "Text
// from services"). A 10 MB progress message was stored and sent to every caller.

/** Half a surrogate pair: what a cut in the middle of a character leaves (jsonb refuses it). */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

describe('boundText', () => {
  it('leaves a text that fits as it is, up to the bound itself', () => {
    expect(boundText('', 20)).toBe('');
    expect(boundText('Step 3 of 50', 20)).toBe('Step 3 of 50');
    expect(boundText('x'.repeat(20), 20)).toBe('x'.repeat(20));
  });

  it('cuts a longer text to the bound, the mark included', () => {
    const cut = boundText('x'.repeat(21), 20);
    expect(cut).toBe(`${'x'.repeat(20 - CUT_MARK.length)}${CUT_MARK}`);
    expect(cut).toHaveLength(20);
    const huge = boundText('m'.repeat(10 * 1024 * 1024), MESSAGE_MAX_CHARS);
    expect(huge).toHaveLength(MESSAGE_MAX_CHARS);
    expect(huge.endsWith(CUT_MARK)).toBe(true);
  });

  it('never cuts inside a character', () => {
    // Each emoji is two UTF-16 units: with the prefix the bound falls inside one, without between two.
    for (const prefix of ['', 'a']) {
      for (let max = CUT_MARK.length + 1; max < CUT_MARK.length + 8; max += 1) {
        const cut = boundText(`${prefix}${'😀'.repeat(50)}`, max);
        expect(cut, `prefix ${JSON.stringify(prefix)}, max ${max}`).not.toMatch(LONE_SURROGATE);
        expect(cut.length).toBeLessThanOrEqual(max);
        expect(cut.endsWith(CUT_MARK)).toBe(true);
      }
    }
    expect(boundText('😀😀😀😀😀😀', CUT_MARK.length + 3)).toBe(`😀${CUT_MARK}`);
  });

  it('turns half a character the service sent into U+FFFD, as PostgreSQL would store it', () => {
    expect(boundText('broken\ud800model', 100)).toBe('broken\ufffdmodel');
  });

  it('is its own bound: a bounded text passes through unchanged', () => {
    const once = boundText('y'.repeat(5000), 300);
    expect(boundText(once, 300)).toBe(once);
  });

  it('refuses a bound with no room for words besides the mark', () => {
    expect(() => boundText('text', CUT_MARK.length)).toThrow(/max must be an integer over/);
    expect(() => boundText('text', 10.5)).toThrow(RangeError);
  });
});

describe('a service’s words in the HTTP runtime’s errors', () => {
  const answer = (status: number, body: unknown) =>
    [
      new Response(null, { status, headers: { 'content-type': 'application/json' } }),
      new TextEncoder().encode(JSON.stringify(body)),
      new URL('http://service.test/run'),
    ] as const;
  const endpoint = { method: 'POST' as const, path: '/run', parameters: [] };

  async function errorOf(status: number, body: unknown): Promise<RuntimeError> {
    const [response, bytes, url] = answer(status, body);
    const error = await interpretAnswer(response, bytes, url, testContext(endpoint).ctx).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RuntimeError);
    return error as RuntimeError;
  }

  it('an unknown job status of 1 MB is quoted bounded', async () => {
    const error = await errorOf(200, { id: 'j1', status: 's'.repeat(1024 * 1024) });
    expect(error.code).toBe('service_error');
    expect(error.message).toBe(
      `The service answered an unknown job status "${'s'.repeat(SERVICE_WORDS_MAX_CHARS - CUT_MARK.length)}${CUT_MARK}"`,
    );
  });

  it('a failed job’s reason and an error answer’s detail are cut with the same mark', async () => {
    const failed = await errorOf(200, { id: 'j1', status: 'failed', error: 'e'.repeat(5000) });
    expect(failed.message).toBe(`The service's job failed: ${'e'.repeat(SERVICE_WORDS_MAX_CHARS - CUT_MARK.length)}${CUT_MARK}`);
    const detail = await errorOf(500, { detail: `${'d'.repeat(SERVICE_WORDS_MAX_CHARS - CUT_MARK.length - 1)}${'😀'.repeat(10)}` });
    expect(detail.message).not.toMatch(LONE_SURROGATE);
    expect(detail.message).toBe(`The service answered 500: ${'d'.repeat(SERVICE_WORDS_MAX_CHARS - CUT_MARK.length - 1)}${CUT_MARK}`);
  });
});
