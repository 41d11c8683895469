import { RuntimeError } from '../runtime';
import { hash32 } from './hash';

// Readers for the job's input. The queue has already checked types against the endpoint's
// parameters; these add the ranges and shapes the demo needs, and name the field when refusing.

type Input = Record<string, unknown>;

export const invalid = (field: string, message: string, cause?: unknown) =>
  new RuntimeError('invalid_input', `${field}: ${message}`, cause === undefined ? undefined : { cause });

export function text(input: Input, name: string, opts: { required?: boolean; max?: number; fallback?: string } = {}): string {
  const value = input[name];
  if (value === undefined || value === null || value === '') {
    if (opts.required) throw invalid(name, 'is required');
    return opts.fallback ?? '';
  }
  if (typeof value !== 'string') throw invalid(name, 'must be a string');
  if (opts.required && value.trim() === '') throw invalid(name, 'must not be blank');
  if (opts.max !== undefined && value.length > opts.max) throw invalid(name, `must be at most ${opts.max} characters`);
  return value;
}

export function num(input: Input, name: string, opts: { fallback: number; min: number; max: number; integer?: boolean }): number {
  const value = input[name] ?? opts.fallback;
  if (typeof value !== 'number' || !Number.isFinite(value)) throw invalid(name, 'must be a number');
  if (opts.integer && !Number.isInteger(value)) throw invalid(name, 'must be an integer');
  if (value < opts.min || value > opts.max) throw invalid(name, `must be between ${opts.min} and ${opts.max} for the local-demo runtime`);
  return value;
}

export const int = (input: Input, name: string, opts: { fallback: number; min: number; max: number }) =>
  num(input, name, { ...opts, integer: true });

export function bool(input: Input, name: string, fallback: boolean): boolean {
  const value = input[name] ?? fallback;
  if (typeof value !== 'boolean') throw invalid(name, 'must be true or false');
  return value;
}

export function choice<T extends string>(input: Input, name: string, allowed: readonly T[], fallback: T): T {
  const value = input[name] ?? fallback;
  if (typeof value !== 'string' || !(allowed as readonly string[]).includes(value.toLowerCase())) {
    throw invalid(name, `must be one of ${allowed.join(', ')}`);
  }
  return value.toLowerCase() as T;
}

/** The `seed` input when given, otherwise one derived from the other inputs (same input, same output). */
export function seedOf(input: Input, ...derivedFrom: unknown[]): number {
  if (input.seed === undefined || input.seed === null) return hash32(...derivedFrom);
  const seed = input.seed;
  if (typeof seed !== 'number' || !Number.isInteger(seed)) throw invalid('seed', 'must be an integer');
  return seed >>> 0;
}

/** The URL or data: URI of a file input, for ctx.readFile. */
export function fileRef(input: Input, name: string): string {
  const value = input[name];
  if (value === undefined || value === null || value === '') throw invalid(name, 'is required');
  if (typeof value !== 'string') throw invalid(name, 'must be a file URL or a data: URI');
  return value;
}

/** Whether a file input was given at all (for endpoints where one of several inputs suffices). */
export const hasValue = (input: Input, name: string) => input[name] !== undefined && input[name] !== null && input[name] !== '';
