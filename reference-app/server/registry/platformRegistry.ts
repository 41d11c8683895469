import path from 'node:path';
import type { Db } from '../db/types';
import { log } from '../log';
import { activePlanOf } from '../payments/queries';
import type { PlatformRegistryConfig } from './config';
import { GarbageCollector } from './garbageCollect';
import { handleOfUser } from './handles';
import type { RegistryBackend } from './images';
import { quotaProblem } from './quota';
import { grant, parseScopes, repositoryIn, type Access } from './scopes';
import { RegistryProcess, storageDirOf } from './supervisor';
import {
  ensureSigningCert,
  issuePullTicket,
  issueRegistryToken,
  RUNNER_USERNAME,
  TOKEN_TTL_S,
  verifyPullTicket,
  type SigningCert,
} from './tokens';

// The platform's registry as the rest of the server sees it (docs/publishing.md, "The platform's
// registry"): its host, the token a caller gets for the scopes they ask, and the credential the
// runner pulls a service's image with.

/** Who asks for a registry token: a user (API key or session), or the runner with a pull ticket. */
export type TokenAsker = { userId: string } | { ticket: string };

export interface TokenAnswer {
  token: string;
  access_token: string;
  expires_in: number;
  issued_at: string;
}

export class RegistryDenied extends Error {}

export class PlatformRegistry {
  readonly host: string;
  readonly storageDir: string;
  private readonly cert: SigningCert;
  private readonly process: RegistryProcess;
  /** Frees the bytes of deleted images (garbageCollect.ts). */
  readonly garbage: GarbageCollector;

  constructor(
    private readonly db: Db,
    private readonly config: PlatformRegistryConfig,
    options: { dataDir: string; publicUrl: string },
  ) {
    const dir = path.join(options.dataDir, 'registry');
    this.host = config.host;
    this.storageDir = storageDirOf(dir);
    this.cert = ensureSigningCert(dir);
    this.garbage = new GarbageCollector({ storageDir: this.storageDir, whileReadOnly: (work) => this.process.whileReadOnly(work) });
    this.process = new RegistryProcess({
      addr: config.addr,
      realm: new URL('/v1/registry/token', options.publicUrl).toString(),
      dir,
      certPath: this.cert.certPath,
    });
  }

  start(): Promise<void> {
    return this.process.start();
  }

  async close(): Promise<void> {
    await this.garbage.close();
    return this.process.stop();
  }

  /**
   * The token for what `asker` asked (`scope` parameters). A user gets push and pull in their own
   * namespace only, and no push once their images exceed the plan's storage (RegistryDenied, with
   * the words); the runner's ticket gets pull on its one repository. Scopes not granted are left
   * out, so the registry refuses them.
   */
  async token(asker: TokenAsker, scopes: string[]): Promise<TokenAnswer> {
    const asked = parseScopes(scopes);
    let subject: string;
    let access: Access[];
    if ('ticket' in asker) {
      const repository = await verifyPullTicket(this.cert, asker.ticket);
      if (!repository) throw new RegistryDenied('The pull ticket is invalid or expired');
      subject = RUNNER_USERNAME;
      access = grant(
        asked.filter((a) => a.name === repository),
        repository.split('/')[0]!,
        ['pull'],
      );
    } else {
      const handle = await handleOfUser(this.db, asker.userId);
      if (!handle) throw new RegistryDenied('The account no longer exists');
      subject = handle;
      access = grant(asked, handle);
      if (access.some((a) => a.actions.includes('push'))) {
        const problem = await quotaProblem(this.storageDir, handle, await activePlanOf(this.db, asker.userId), this.config.quotaCapMb);
        if (problem) throw new RegistryDenied(problem);
      }
    }
    const token = await issueRegistryToken(this.cert, subject, access);
    return { token, access_token: token, expires_in: TOKEN_TTL_S, issued_at: new Date().toISOString() };
  }

  /** The caller's namespace: images go to `<host>/<namespace>/<name>:<tag>`. */
  namespaceOf(userId: string): Promise<string | null> {
    return handleOfUser(this.db, userId);
  }

  /** What listing and deleting images needs (registry/images.ts): the registry's API and a token for it. */
  backend(): RegistryBackend {
    return {
      host: this.host,
      storageDir: this.storageDir,
      addr: this.config.addr,
      quotaCapMb: this.config.quotaCapMb,
      tokenFor: (repository, actions) => issueRegistryToken(this.cert, 'limelight-platform', [{ type: 'repository', name: repository, actions }]),
    };
  }

  /**
   * The runner's credential for a service's image on this registry: a pull ticket for that one
   * repository, and only when it is in the owner's namespace (a service cannot run another
   * publisher's image from here). Undefined for another registry or another's namespace.
   */
  async pullAuthFor(image: string, ownerId: string | null): Promise<{ registry: string; username: string; password: string } | undefined> {
    const repository = repositoryIn(image, this.host);
    if (!repository || !ownerId) return undefined;
    if (repository.split('/')[0] !== (await handleOfUser(this.db, ownerId))) return undefined;
    return { registry: this.host, username: RUNNER_USERNAME, password: await issuePullTicket(this.cert, repository) };
  }
}

/**
 * Starts the platform's registry, or answers undefined with a warning when it cannot run here
 * (docker-registry not installed, the port taken): hosting with bring-your-own registries works
 * without it, and GET /v1/registry says there is none.
 */
export async function startPlatformRegistry(
  db: Db,
  config: PlatformRegistryConfig,
  options: { dataDir: string; publicUrl: string },
): Promise<PlatformRegistry | undefined> {
  try {
    const registry = new PlatformRegistry(db, config, options);
    await registry.start().catch(async (error: Error) => {
      await registry.close();
      throw error;
    });
    log.info(`platform registry on ${config.addr} (push to ${config.host}/<your namespace>/<name>:<tag>)`);
    return registry;
  } catch (error) {
    // Said once, in words (the cause and the fix are in the message): no stack for an operator to read.
    log.warn(`the platform registry did not start (${(error as Error).message}); bring-your-own registries still work`);
    return undefined;
  }
}
