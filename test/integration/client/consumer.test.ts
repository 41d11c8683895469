import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../../../scripts/source-aliases.mjs';
import { globalServer } from '../helpers';
import { keyedUser } from './fixtures';
import { apiTabSamples, documentedSamples, failedSamples } from './samples';

// @limelight/client as a consumer gets it: built, packed into a tarball, installed in a fresh
// folder outside the repository, then used by a plain Node script (API key, a text-to-image
// run, the image URL) and by TypeScript with types from its limelight-types CLI: the typed file
// compiles, the same file with a misspelt or mistyped input field does not.

const server = globalServer();
const tsc = path.join(projectRoot, 'node_modules/typescript/bin/tsc');
let folder = '';
let tarball = '';
let env: NodeJS.ProcessEnv = {};

beforeAll(async () => {
  execFileSync('node', ['scripts/build-client.mjs'], { cwd: projectRoot, stdio: 'pipe' });
  const packs = mkdtempSync(path.join(tmpdir(), 'lime-pack-'));
  tarball = execFileSync('npm', ['pack', '--silent', '--pack-destination', packs], {
    cwd: path.join(projectRoot, 'packages/client'),
    encoding: 'utf8',
  })
    .trim()
    .split('\n')
    .pop()!;
  folder = mkdtempSync(path.join(tmpdir(), 'lime-consumer-'));
  writeFileSync(path.join(folder, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
  execFileSync('npm', ['install', '--offline', '--no-audit', '--no-fund', '--ignore-scripts', path.join(packs, tarball)], {
    cwd: folder,
    stdio: 'pipe',
  });
  env = { ...process.env, LIMELIGHT_BASE_URL: server.url, LIMELIGHT_API_KEY: (await keyedUser(server, 'consumer')).apiKey };
}, 120_000);

describe('@limelight/client from its tarball', () => {
  it('a Node script runs a text-to-image service with an API key and prints the image URL', async () => {
    writeFileSync(
      path.join(folder, 'run.mjs'),
      [
        "import { createClient } from '@limelight/client';",
        'const client = createClient({ baseUrl: process.env.LIMELIGHT_BASE_URL, apiKey: process.env.LIMELIGHT_API_KEY });',
        "const output = await client.run('lime-diffusion-xl', { input: { prompt: 'a lighthouse at dusk', width: 128, height: 128 } });",
        'console.log(output.image.url());',
      ].join('\n'),
    );
    const result = spawnSync('node', ['run.mjs'], { cwd: folder, env, encoding: 'utf8' });
    expect(result.stderr).toBe('');
    const url = result.stdout.trim();
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/media\/files\/\S+$/);
    const image = await fetch(url);
    expect(image.headers.get('content-type')).toBe('image/png');
  });

  it(
    'the JavaScript samples of docs/ and of the API tab run as pasted (samples.ts), installed as the install line says',
    { timeout: 240_000 },
    async () => {
      const apiKey = env.LIMELIGHT_API_KEY!;
      const tab = await apiTabSamples(server.url, apiKey);
      // The tarball this folder installed is the one the API tab's install line names.
      for (const sample of tab.all.filter((s) => s.language === 'javascript')) {
        expect(sample.code, sample.origin).toContain(`npm install ./packages/client/${tarball}`);
      }
      const samples = [...documentedSamples(), ...tab.shapes].filter((s) => s.language === 'javascript');
      expect(samples.length).toBeGreaterThan(4);
      expect(await failedSamples(samples, { baseUrl: server.url, apiKey, cwd: folder, env: { LIMELIGHT_API_KEY: apiKey } })).toEqual([]);
    },
  );

  it('limelight-types writes a type map: typed input compiles, a misspelt or mistyped field does not', { timeout: 60_000 }, () => {
    const generated = spawnSync('npx', ['--no-install', 'limelight-types', 'lime-diffusion-xl', '--out', 'limelight.d.ts'], {
      cwd: folder,
      env,
      encoding: 'utf8',
    });
    expect(generated.status, generated.stderr).toBe(0);
    expect(readFileSync(path.join(folder, 'limelight.d.ts'), 'utf8')).toContain('"/generate"');
    const program = (input: string) =>
      [
        "import { createClient } from '@limelight/client';",
        "const client = createClient({ baseUrl: 'http://localhost:3000', apiKey: 'lime_x' });",
        `const output = await client.run('lime-diffusion-xl', { input: ${input} });`,
        'const url: string = output.image.url();',
        "const untyped: unknown = await client.run('not-generated', { input: { anything: 1 } });",
        'export { url, untyped };',
      ].join('\n');
    // One compiler run over the three variants (each a module of its own); errors name their file.
    const variants = {
      'typed.ts': "{ prompt: 'x', width: 512 }",
      'misspelt.ts': "{ promt: 'x' }",
      'mistyped.ts': "{ prompt: 'x', width: 'wide' }",
    };
    for (const [name, input] of Object.entries(variants)) writeFileSync(path.join(folder, name), program(input));
    const args = [
      '--noEmit',
      '--strict',
      '--skipLibCheck',
      '--target',
      'es2022',
      '--module',
      'nodenext',
      '--lib',
      'es2023,dom',
      ...Object.keys(variants),
      'limelight.d.ts',
    ];
    const { stdout } = spawnSync('node', [tsc, ...args], { cwd: folder, encoding: 'utf8' });
    const errors = stdout.split('\n').filter((line) => /^\w+\.ts\(/.test(line));
    expect(errors.filter((line) => line.startsWith('typed.ts'))).toEqual([]);
    expect(errors.filter((line) => line.startsWith('misspelt.ts')).join('\n')).toMatch(/misspelt\.ts\(3,.*'promt' does not exist/);
    expect(errors.filter((line) => line.startsWith('mistyped.ts')).join('\n')).toMatch(
      /mistyped\.ts\(3,.*Type 'string' is not assignable to type 'number'/,
    );
  });
});
