// A real limelight.serve service image, built by `limelight build` as a publisher's is (the
// cached Debian base, the working tree's limelight package, the app): the snapshot tier's tests and
// the hosting benchmark run it (docs/deploy.md, "Snapshot cold starts").
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { podmanEnv } from '../../scripts/engine.mjs';
import type { ImageConfig } from '../../reference-app/server/hosting';

const SDK = path.resolve(import.meta.dirname, '../../sdk/python');
export const SERVE_IMAGE = 'localhost/limelight-snapshot-app:latest';

/**
 * The app: a setup that takes a moment and holds memory (as loading weights does), `/draw` that
 * answers a random number and its instance's setting, and `/wait` with a 2 s time limit; with
 * OPEN_SOCKET set, its setup leaves a socket open.
 */
export const SERVE_APP = `import os, random, time
from limelight.serve import App

app = App(title="Snapshot probe")
weights = []

held = []

@app.setup
def load():
    weights.append(bytearray(32 * 2**20))  # 32 MB that setup made, in the snapshot
    time.sleep(0.5)
    if os.environ.get("OPEN_SOCKET"):
        import socket
        held.append(socket.socket())  # a connection left open: no snapshot can hold it

@app.endpoint("/draw")
def draw() -> dict:
    return {"n": random.random(), "note": os.environ.get("INSTANCE_NOTE", ""), "weights": len(weights[0])}

@app.endpoint("/wait", time_limit_s=2)
def wait(seconds: float = 0.5) -> dict:
    time.sleep(seconds)
    return {"slept": seconds}
`;

/** Builds SERVE_IMAGE with `limelight build` (minutes the first time: the base; seconds after). */
export function buildServeImage(tag = SERVE_IMAGE): string {
  const folder = mkdtempSync(path.join(tmpdir(), 'limelight-serve-image-'));
  try {
    writeFileSync(path.join(folder, 'limelight.yaml'), 'name: snapshot-probe\nentry: main:app\npython: [main.py]\nport: 8080\n');
    writeFileSync(path.join(folder, 'main.py'), SERVE_APP);
    execFileSync('/usr/bin/python3', ['-m', 'limelight', 'build', '--engine', 'podman', '--tag', tag], {
      cwd: folder,
      env: { ...podmanEnv(), PYTHONPATH: SDK },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    return tag;
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

/** The image's command, environment and folder, as the runner reads them from the engine. */
export function imageConfigOf(image: string): ImageConfig {
  const [info] = JSON.parse(execFileSync('podman', ['image', 'inspect', image], { env: podmanEnv(), encoding: 'utf8' })) as {
    Config: { Env?: string[]; Entrypoint?: string[] | null; Cmd?: string[] | null; WorkingDir?: string };
  }[];
  const config = info!.Config;
  return { env: config.Env ?? [], cmd: [...(config.Entrypoint ?? []), ...(config.Cmd ?? [])], workingDir: config.WorkingDir ?? '/' };
}
