import { MAX_EXECUTION_MS, MAX_REQUESTS_PER_HOUR } from './constants';

/** Why a calculator field is invalid; the strings table words each one. */
export type FieldErrorCode = 'required' | 'notANumber' | 'negative' | 'tooLarge';

export type FieldResult = { ok: true; value: number } | { ok: false; error: FieldErrorCode; max: number };

export type CalculatorField = 'requestsPerHour' | 'executionMs';

/** Upper bounds of the two fields (product-rules §9 "absurdly large"). */
export const FIELD_MAX: Record<CalculatorField, number> = {
  requestsPerHour: MAX_REQUESTS_PER_HOUR,
  executionMs: MAX_EXECUTION_MS,
};

// Plain decimal numbers only: "1e3", "0x10", "Infinity" or "1,5" are refused rather than
// guessed at. A leading sign is read so "-5" reports "negative", not "not a number".
const NUMBER = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)$/;

/**
 * Reads one field as typed (product-rules §9 calculator inputs): empty -> required, not a plain decimal
 * -> notANumber, below zero -> negative, above `max` -> tooLarge. Spaces around the number and
 * thousands groups ("10 000", "10,000") are forgiven; a decimal comma ("1,5") is refused rather
 * than misread. Never yields NaN or Infinity.
 */
export function parseNumberField(raw: string | number | null | undefined, max: number): FieldResult {
  const text = typeof raw === 'number' ? String(raw) : (raw ?? '');
  let compact = text.trim().replace(/(?<=\d)[\s_](?=\d{3}\b)/g, '');
  if (/^[+-]?\d{1,3}(?:,\d{3})+(?:\.\d+)?$/.test(compact)) compact = compact.replace(/,/g, '');
  if (compact === '') return { ok: false, error: 'required', max };
  if (!NUMBER.test(compact)) return { ok: false, error: 'notANumber', max };
  const value = Number(compact);
  // Digits enough to overflow a double are still a number, just an absurd one.
  if (!Number.isFinite(value)) return { ok: false, error: value < 0 ? 'negative' : 'tooLarge', max };
  if (value < 0) return { ok: false, error: 'negative', max };
  if (value > max) return { ok: false, error: 'tooLarge', max };
  return { ok: true, value: value === 0 ? 0 : value }; // no -0
}

/** The calculator's two fields as typed: requests per hour and execution time (ms). */
export interface CalculatorInputs {
  requestsPerHour: string | number;
  executionMs: string | number;
}

/** The result of `validateCalculatorInputs`: the parsed values and an error code per bad field. */
export type CalculatorValidation =
  | { ok: true; values: Record<CalculatorField, number>; errors: Partial<Record<CalculatorField, FieldErrorCode>> }
  | { ok: false; values: Partial<Record<CalculatorField, number>>; errors: Partial<Record<CalculatorField, FieldErrorCode>> };

/** Validates both fields at once; `errors` names each bad field. */
export function validateCalculatorInputs(inputs: CalculatorInputs): CalculatorValidation {
  const values: Partial<Record<CalculatorField, number>> = {};
  const errors: Partial<Record<CalculatorField, FieldErrorCode>> = {};
  for (const field of ['requestsPerHour', 'executionMs'] as const) {
    const result = parseNumberField(inputs[field], FIELD_MAX[field]);
    if (result.ok) values[field] = result.value;
    else errors[field] = result.error;
  }
  if (Object.keys(errors).length === 0) {
    return { ok: true, values: values as Record<CalculatorField, number>, errors };
  }
  return { ok: false, values, errors };
}
