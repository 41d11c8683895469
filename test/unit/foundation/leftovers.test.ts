import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { leftoverProcesses, RUN_MARK } from '../../../scripts/leftovers.mjs';

// The end-of-run check of npm test (docs/testing.md, "Nothing left running"), on real processes:
// one carrying a run's mark is that run's leftover, one of another run is not, and Podman's
// host-wide DNS daemon is never the run's to stop even when the run happened to start it.

const started: ChildProcess[] = [];
afterEach(() => {
  for (const child of started.splice(0)) child.kill('SIGKILL');
});

/** A sleeping process whose argv[0] is `name`, with `mark` in its environment. */
async function sleeper(name: string, mark: string): Promise<number> {
  const child = spawn('bash', ['-c', `exec -a ${name} sleep 30`], { env: { ...process.env, [RUN_MARK]: mark }, stdio: 'ignore' });
  started.push(child);
  // Until bash has exec'd, the process's command line is still bash's.
  const commandLine = () => readFileSync(`/proc/${child.pid}/cmdline`, 'utf8');
  for (let i = 0; i < 250 && !commandLine().startsWith(name); i++) await new Promise((r) => setTimeout(r, 20));
  return child.pid!;
}

describe.skipIf(!existsSync('/proc/self/stat'))('leftover processes of a test run', () => {
  const run = (mark: string) => ({ mark, session: '-1', startTime: 0 });

  it('names a process carrying the run’s mark, and not one of another run', async () => {
    const pid = await sleeper('/usr/bin/docker-registry', 'run-a');
    expect(leftoverProcesses(run('run-a'))).toEqual([{ pid, command: expect.stringContaining('docker-registry') }]);
    expect(leftoverProcesses(run('run-b'))).toEqual([]);
  });

  it('leaves Podman’s shared aardvark-dns alone though it carries the mark', async () => {
    await sleeper('/usr/lib/podman/aardvark-dns', 'run-c');
    const registry = await sleeper('/usr/bin/docker-registry', 'run-c');
    expect(leftoverProcesses(run('run-c')).map((p) => p.pid)).toEqual([registry]);
  });
});
