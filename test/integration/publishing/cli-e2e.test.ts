// The publisher's path end to end (docs/publishing.md, "Write a service in Python"): `limelight
// init`, the OCR example's code in its place, then `limelight push --deploy` (which builds) as
// pasted from the docs, against a real platform server with its registry and runner on; then
// the service runs from @limelight/client and from limelight.Client: an image holding a word
// rendered here reads back as that word, and the job's stream shows the progress the Python
// function reported. Needs rootful Podman, docker-registry, mmdebstrap and a Python with FastAPI;
// skips saying which is missing. The base image is cached (limelight/cli/build.py), so only the
// first run builds it.
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../../../packages/client/src/index';
import { rawApi } from '../helpers';
import { textPng } from '../../fixtures/textPng';
import { cliPublisher, cliSkipReason, sh } from './limelightCli';

const OCR_EXAMPLE = fileURLToPath(new URL('../../../examples/ocr', import.meta.url));
const skip = cliSkipReason();
if (skip) console.warn(`limelight CLI e2e test skipped: ${skip}`);

describe.skipIf(skip)('limelight init → push --deploy → run (the OCR example)', () => {
  const name = `ocr-e2e-${process.pid}`;
  const cli = cliPublisher('cli-e2e', name);
  let folder: string;
  let env: Record<string, string>;
  let png: Buffer;

  beforeAll(async () => {
    png = await textPng('HELLO', 2400, 1600);
    folder = path.join(cli.dataDir, 'service');
    env = { ...cli.env, LIMELIGHT_API_KEY: cli.apiKey };
  });

  it('publishes with the two commands of the docs and reads the word back from both SDKs', { timeout: 900_000 }, async () => {
    const init = await sh(`limelight init service --name ${name}`, cli.dataDir, env);
    expect(init.status, init.output).toBe(0);
    // The publisher's code: the OCR example in place of the word counter.
    copyFileSync(path.join(OCR_EXAMPLE, 'main.py'), path.join(folder, 'main.py'));
    const yaml = readFileSync(path.join(OCR_EXAMPLE, 'limelight.yaml'), 'utf8').replace(/^name: .*$/m, `name: ${name}`);
    writeFileSync(path.join(folder, 'limelight.yaml'), yaml);

    // One command (issue 49): push builds, as nothing was built here yet, then deploys and prints
    // the rollout as it goes (the runner's pull and start, the app's setup, health).
    const published = await sh('limelight push --deploy', folder, env);
    expect(published.status, published.output).toBe(0);
    expect(published.output).toContain(`no image localhost/${name}:latest: building…`);
    const serviceId = /service (\S+): /.exec(published.output)![1]!;
    const progress = published.output.split('\n').filter((line) => /^ {2}(platform|app): |^deployment: /.test(line));
    expect(progress.findIndex((line) => /^ {2}platform: pull \d+ ms/.test(line))).toBeGreaterThanOrEqual(0);
    expect(progress.findIndex((line) => /^ {2}platform: Instance ready in \d+ ms/.test(line))).toBeGreaterThan(
      progress.findIndex((line) => /^ {2}platform: pull \d+ ms/.test(line)),
    );
    expect(progress.at(-1)).toMatch(/^deployment: running/);
    console.info(`limelight CLI e2e: push --deploy from a folder ${published.ms} ms\n${progress.join('\n')}`);
    // Nothing changed: the second push builds nothing.
    const again = await sh('limelight push', folder, env);
    expect(again.status, again.output).toBe(0);
    expect(again.output).toContain(`image up to date: localhost/${name}:latest`);

    // The endpoint came from the app's OpenAPI, with its time limit.
    const service = await rawApi(cli.server, 'GET', `/v1/model_management/services/${serviceId}`, { token: cli.apiKey });
    expect(service.json).toMatchObject({ endpoints: [{ method: 'POST', path: '/read', time_limit_s: 60 }] });
    expect(String((service.json.runtime as { image: string }).image)).toMatch(/@sha256:[0-9a-f]{64}$/);

    const client = createClient({ baseUrl: cli.server.url, apiKey: cli.apiKey });
    const seen: { progress: number; message: string | null }[] = [];
    const result = (await client.run(serviceId, {
      endpoint: '/read',
      input: { image: new Blob([new Uint8Array(png)], { type: 'image/png' }) },
      onEvent: (event) => seen.push({ progress: event.job.progress, message: event.job.message }),
    })) as { text: string; words: { text: string; box: number[] }[] };
    expect(result.text).toBe('HELLO');
    expect(result.words[0]!.box).toHaveLength(4);
    expect(seen.map((e) => e.message)).toContain('reading the image');

    const imagePath = path.join(cli.dataDir, 'hello.png');
    writeFileSync(imagePath, png);
    const fromPython = await sh(
      `${cli.python} -c '
import json, sys, limelight
seen = []
client = limelight.Client()
out = client.run(sys.argv[1], {"image": sys.argv[2]}, endpoint="/read", on_event=lambda event: seen.append(event.job["message"]))
print(json.dumps({"text": out["text"], "messages": seen}))' ${serviceId} ${imagePath}`,
      cli.dataDir,
      env,
    );
    expect(fromPython.status, fromPython.output).toBe(0);
    const answer = JSON.parse(fromPython.output.trim().split('\n').pop()!) as { text: string; messages: (string | null)[] };
    expect(answer.text).toBe('HELLO');
    expect(answer.messages).toContain('reading the image');
  });
});
