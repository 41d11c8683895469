import { createRequire } from 'node:module';
import type * as Gifenc from 'gifenc';

// gifenc publishes CommonJS ("main") and an ESM build ("module") with different export shapes:
// Node sees only a default export, Vite (the tests) only named ones. Requiring the CommonJS build
// gives every caller the same object.
export const gifenc = createRequire(import.meta.url)('gifenc') as typeof Gifenc;
