// The e2e suite's platform server: reference-app/server/main.ts, started on a copy of the
// migrated and seeded PGlite template the unit and integration tests start from (built once per
// version of the server's sources, reference-app/server/testing.ts) instead of an empty DATA_DIR.
// Migrating and seeding a new database was about half of the start (27 -> 14.5 CPU-s at load 8,
// docs/testing.md); main.ts then finds the database seeded and starts as it would on a second
// start. What a first start on an empty directory does stays tested where it is the subject:
// the container image (test/image) and the server started as a child process
// (test/integration/process.test.ts).
import { existsSync } from 'node:fs';
import { pgliteDir } from '../../../reference-app/server/platform';
import { copyTemplate } from '../../../reference-app/server/testing';

const dataDir = process.env.DATA_DIR;
if (!dataDir) throw new Error('test/e2e/support/server.ts needs DATA_DIR (playwright.config.ts sets it)');
if (!existsSync(pgliteDir(dataDir))) await copyTemplate(pgliteDir(dataDir));
await import('../../../reference-app/server/main');
