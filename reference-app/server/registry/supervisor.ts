import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { log } from '../log';
import { REGISTRY_ISSUER, REGISTRY_SERVICE } from './tokens';

// Runs Debian's docker-registry (CNCF Distribution) beside the platform: token auth whose realm
// is the platform's token endpoint, storage in DATA_DIR/registry/data, loopback only. Restarted
// when it exits unexpectedly (with a pause, so a broken config does not spin); stopped with the
// platform.

export const REGISTRY_BINARY = '/usr/bin/docker-registry';

export interface RegistryProcessOptions {
  addr: string;
  realm: string;
  dir: string;
  certPath: string;
}

export const storageDirOf = (dir: string) => path.join(dir, 'data');

function configYaml(options: RegistryProcessOptions): string {
  const q = JSON.stringify;
  return [
    'version: 0.1',
    'log: { level: error }',
    `storage: { filesystem: { rootdirectory: ${q(storageDirOf(options.dir))} }, delete: { enabled: true } }`,
    `http: { addr: ${q(options.addr)}, secret: ${q(randomBytes(16).toString('hex'))} }`,
    'auth:',
    '  token:',
    `    realm: ${q(options.realm)}`,
    `    service: ${q(REGISTRY_SERVICE)}`,
    `    issuer: ${q(REGISTRY_ISSUER)}`,
    `    rootcertbundle: ${q(options.certPath)}`,
    '',
  ].join('\n');
}

export class RegistryProcess {
  private child: ChildProcess | null = null;
  private stopping = false;
  private stderr = '';

  constructor(private readonly options: RegistryProcessOptions) {}

  /** Starts it and waits until /v2/ answers (401: it wants a token, so it is up). */
  async start(): Promise<void> {
    const config = path.join(this.options.dir, 'config.yml');
    mkdirSync(storageDirOf(this.options.dir), { recursive: true });
    writeFileSync(config, configYaml(this.options), { mode: 0o600 });
    this.spawn(config);
    const started = Date.now();
    for (;;) {
      if (this.child?.exitCode !== null) throw new Error(`docker-registry exited: ${this.stderr.trim()}`);
      const res = await fetch(`http://${this.options.addr}/v2/`).catch(() => null);
      if (res && (res.status === 401 || res.ok)) return;
      if (Date.now() - started > 15_000) throw new Error(`docker-registry did not answer within 15 s: ${this.stderr.trim()}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  private spawn(config: string): void {
    const child = spawn(REGISTRY_BINARY, ['serve', config], { stdio: ['ignore', 'ignore', 'pipe'] });
    this.child = child;
    child.stderr?.on('data', (d) => (this.stderr = (this.stderr + d).slice(-4000)));
    child.on('exit', (code) => {
      if (this.stopping) return;
      log.warn({ code, stderr: this.stderr.slice(-500) }, 'docker-registry exited; restarting it in 2 s');
      setTimeout(() => !this.stopping && this.spawn(config), 2_000).unref();
    });
  }

  async stop(): Promise<void> {
    this.stopping = true;
    const child = this.child;
    if (!child || child.exitCode !== null) return;
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    await exited;
  }
}
