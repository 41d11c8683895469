import { vi } from 'vitest';

// The suite is written for jest; vitest's `vi` has the same spy, mock and timer calls it uses.
Object.assign(globalThis, { jest: vi });
