import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SERVER_ARGS } from '../../setup/server-bundle';

// A bad setting stops the server before anything starts, with one line naming the variable, the
// value and what was expected (reference-app/server/config/env.ts), never a stack trace. The
// server runs from its bundle, as operators run it (built by test/setup/server-bundle.ts).

const dataDir = mkdtempSync(path.join(tmpdir(), 'lime-bad-env-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

function start(env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, SERVER_ARGS, {
      env: { PATH: process.env.PATH, HOST: '127.0.0.1', PORT: '0', DATA_DIR: dataDir, LOG_FORMAT: 'pretty', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk));
    child.once('error', reject);
    child.once('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

// Concurrently: each start loads the server's modules (seconds under load) and exits at once.
describe.concurrent('a server started with a bad setting', () => {
  it.each([
    [{ WORKERS: 'abc' }, 'WORKERS must be a whole number ≥ 1, or auto, got "abc"'],
    [{ JOB_LEASE_SECONDS: '-1' }, 'JOB_LEASE_SECONDS must be a whole number of seconds ≥ 2, got "-1"'],
    [{ LIMELIGHT_SECRET_KEY: 'abc' }, 'LIMELIGHT_SECRET_KEY must be 32 bytes (64 hex digits or base64), got "abc"'],
  ])(
    '%o exits 1 with one line naming the variable',
    async (env, message) => {
      const { code, stdout, stderr } = await start(env);
      expect(code).toBe(1);
      const lines = (stdout + stderr).split('\n').filter((line) => line.trim() !== '');
      expect(lines).toHaveLength(1);
      expect(lines[0]).toContain(`Configuration error: ${message}`);
      expect(stdout + stderr).not.toMatch(/^\s+at /m);
    },
    60_000,
  );
});
