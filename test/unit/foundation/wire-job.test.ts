import { describe, expect, it } from 'vitest';
import type { Job } from '@limelight/client';
import type { components } from '../../../src/api/generated/openapi';
import type { JOB_STATUSES } from '../../../src/api';

// The job envelope has one definition, the SDK's (packages/client/src/types.ts), which the widgets'
// /api entry re-exports. The server's OpenAPI document (src/api/generated/openapi.ts, kept equal to
// it by scripts/contract.mjs) must describe the same fields: the type check (npm test's first step)
// fails when a field is added, removed or retyped on either side. `result` is typed per service
// by the SDK (unknown on the wire), and `input` is the caller's.

type WireJob = components['schemas']['Job'];
type Comparable<T> = Omit<T, 'result' | 'input'>;
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;

const sdkMatchesWire: Same<Comparable<Job>, Comparable<WireJob>> = true;
const statusesMatchWire: Same<(typeof JOB_STATUSES)[number], WireJob['status']> = true;

describe('the job envelope', () => {
  it('is the same shape in the SDK and in the OpenAPI document (checked by the type check)', () => {
    expect([sdkMatchesWire, statusesMatchWire]).toEqual([true, true]);
  });
});
