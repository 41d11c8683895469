import { describe, expect, it } from 'vitest';
import { validateCalculatorInputs } from '../../../src/pricing';
import { FIELD_MAX, parseNumberField } from '../../../src/pricing/input';
import { MAX_EXECUTION_MS, MAX_REQUESTS_PER_HOUR } from '../../../src/pricing/constants';

describe('calculator input validation (product-rules §9 calculator inputs; issue 7: never NaN or Infinity)', () => {
  it('reads plain numbers, with spaces around and thousands groups', () => {
    expect(parseNumberField('100', 1000)).toEqual({ ok: true, value: 100 });
    expect(parseNumberField('  300 ', 1000)).toEqual({ ok: true, value: 300 });
    expect(parseNumberField('12.5', 1000)).toEqual({ ok: true, value: 12.5 });
    expect(parseNumberField('.5', 1000)).toEqual({ ok: true, value: 0.5 });
    expect(parseNumberField('+7', 1000)).toEqual({ ok: true, value: 7 });
    expect(parseNumberField('10 000', 1e6)).toEqual({ ok: true, value: 10_000 });
    expect(parseNumberField('10,000', 1e6)).toEqual({ ok: true, value: 10_000 });
    expect(parseNumberField('1,000,000', 1e6)).toEqual({ ok: true, value: 1_000_000 });
    expect(parseNumberField(42, 1000)).toEqual({ ok: true, value: 42 });
  });

  it('accepts zero, never -0', () => {
    const zero = parseNumberField('-0', 10);
    expect(zero).toEqual({ ok: true, value: 0 });
    expect(Object.is((zero as { value: number }).value, -0)).toBe(false);
  });

  it('empty -> required', () => {
    for (const raw of ['', '   ', null, undefined]) expect(parseNumberField(raw, 10)).toMatchObject({ ok: false, error: 'required' });
  });

  it('non-numeric -> notANumber (no guessing at exponents, hex, words or decimal commas)', () => {
    for (const raw of ['abc', '12abc', '1e3', '0x10', 'Infinity', 'NaN', '1,5', '1.2.3', '--1', '5 5']) {
      expect(parseNumberField(raw, 1e9), raw).toMatchObject({ ok: false, error: 'notANumber' });
    }
  });

  it('negative -> negative', () => {
    expect(parseNumberField('-1', 10)).toMatchObject({ ok: false, error: 'negative' });
    expect(parseNumberField('-0.01', 10)).toMatchObject({ ok: false, error: 'negative' });
  });

  it('absurdly large -> tooLarge, with the bound', () => {
    expect(parseNumberField(String(MAX_REQUESTS_PER_HOUR), FIELD_MAX.requestsPerHour)).toMatchObject({ ok: true });
    expect(parseNumberField(String(MAX_REQUESTS_PER_HOUR + 1), FIELD_MAX.requestsPerHour)).toEqual({
      ok: false,
      error: 'tooLarge',
      max: MAX_REQUESTS_PER_HOUR,
    });
    expect(parseNumberField('9'.repeat(400), FIELD_MAX.executionMs)).toMatchObject({ ok: false, error: 'tooLarge' });
    expect(FIELD_MAX.executionMs).toBe(MAX_EXECUTION_MS);
  });

  it('validates both fields and names each bad one', () => {
    expect(validateCalculatorInputs({ requestsPerHour: '100', executionMs: '300' })).toEqual({
      ok: true,
      values: { requestsPerHour: 100, executionMs: 300 },
      errors: {},
    });
    expect(validateCalculatorInputs({ requestsPerHour: '-5', executionMs: '' })).toEqual({
      ok: false,
      values: {},
      errors: { requestsPerHour: 'negative', executionMs: 'required' },
    });
    expect(validateCalculatorInputs({ requestsPerHour: '5', executionMs: 'x' })).toEqual({
      ok: false,
      values: { requestsPerHour: 5 },
      errors: { executionMs: 'notANumber' },
    });
  });
});
