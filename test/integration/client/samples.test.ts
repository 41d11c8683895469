import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../../../scripts/source-aliases.mjs';
import { codeSamples } from '../../../src/components/ServiceRunner/codeSamples';
import { globalServer } from '../helpers';
import { keyedUser } from './fixtures';
import { hasPython } from '../../fixtures/python';

// The API tab's Python sample (src/components/ServiceRunner/codeSamples.ts) runs as pasted
// against the real server, with the limelight SDK of this repository on the path. (The
// JavaScript sample runs from the packed @limelight/client in consumer.test.ts.)

describe('API tab samples', () => {
  it.runIf(hasPython())('the Python sample runs as pasted against the real server, with the SDK on the path', async () => {
    const server = globalServer();
    const { apiKey } = await keyedUser(server, 'py-sample');
    const { python } = codeSamples({
      apiUrl: server.url,
      serviceId: 'lime-diffusion-xl',
      endpoint: '/generate',
      input: { prompt: 'a lime', width: 64, height: 64 },
      apiKey,
    });
    const out = execFileSync('python3', ['-c', python], {
      encoding: 'utf8',
      env: { ...process.env, PYTHONPATH: path.join(projectRoot, 'sdk/python') },
    });
    expect(out).toMatch(/'image': \{'url': 'http:\/\/127\.0\.0\.1:\d+\/media\/files\/[^']+'/);
    expect(out).toContain("'content_type': 'image/png'");
  });
});
