import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SERVER_EXTERNAL } from '../../../scripts/build-server.mjs';
import { packageOf } from '../../../scripts/package-imports.mjs';
import { projectRoot } from '../../../scripts/source-aliases.mjs';

// The production image installs the reference-app workspace's dependencies and nothing else
// (Dockerfile, docs/deploy.md "Container"), so every package the server bundle leaves for
// node_modules to provide must be one of them, or the image fails at start with
// ERR_MODULE_NOT_FOUND (as it once did for jimp and sharp; issue 36).

/** Left external but never loaded in production: pg's optional native binding, and Vite (only `--dev`). */
const NOT_AT_RUN_TIME = ['pg-native', 'vite'];

describe('the server bundle and the image', () => {
  it('has every external package of the bundle among the reference-app workspace dependencies', () => {
    const app = JSON.parse(readFileSync(path.join(projectRoot, 'reference-app/package.json'), 'utf8')) as {
      dependencies: Record<string, string>;
    };
    const needed = [...new Set(SERVER_EXTERNAL.filter((name) => !name.includes('*')).map(packageOf))].filter(
      (name) => !NOT_AT_RUN_TIME.includes(name),
    );
    expect(needed.length).toBeGreaterThan(0);
    expect(needed.filter((name) => !(name in app.dependencies))).toEqual([]);
  });
});
