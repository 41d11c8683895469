// A Python interpreter that can run limelight.serve (FastAPI, pydantic, uvicorn and
// python-multipart importable), for the tests that serve a real Python app. Debian's packages live
// in /usr/bin/python3's path, which another python3 first on PATH (pyenv) does not see, so both
// are tried; PYTHON names another.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const SDK_PYTHON_PATH = fileURLToPath(new URL('../../sdk/python', import.meta.url));

const CANDIDATES = [process.env.PYTHON, 'python3', '/usr/bin/python3'].filter((p): p is string => Boolean(p));

/** The interpreter to use, or why the test is skipped. */
export function findServePython(): { python: string; skip?: undefined } | { python?: undefined; skip: string } {
  for (const python of CANDIDATES) {
    const probe = spawnSync(python, ['-c', 'import fastapi, pydantic, uvicorn, multipart'], { encoding: 'utf8' });
    if (probe.status === 0) return { python };
  }
  return {
    skip: `no Python with FastAPI (tried ${CANDIDATES.join(', ')}): apt-get install python3-fastapi python3-pydantic python3-uvicorn python3-multipart`,
  };
}

/** Runs Python code with the SDK on its path and answers its standard output. */
export function runPython(python: string, code: string, extraPath: string[] = []): string {
  const done = spawnSync(python, ['-c', code], {
    encoding: 'utf8',
    env: { ...process.env, PYTHONPATH: [SDK_PYTHON_PATH, ...extraPath].join(':') },
    maxBuffer: 16 * 1024 * 1024,
  });
  if (done.status !== 0) throw new Error(`python exited with ${done.status}: ${done.stderr}`);
  return done.stdout;
}
