import path from 'node:path';
import type { Db } from '../db/types';
import { log } from '../log';
import { hostingQuotaOf } from '../payments/hostingQuotas';
import { activePlanOf } from '../payments/queries';
import type { PlatformRegistryConfig } from './config';
import { GarbageCollector } from './garbageCollect';
import { handleOfUser } from './handles';
import type { RegistryBackend } from './images';
import { RegistryProxy } from './proxy';
import { quotaProblem, registryQuotaMb, removeUnfinishedUploads } from './quota';
import { grant, parseScopes, repositoryIn, type Access } from './scopes';
import { addressInUse, RegistryProcess, socketPathOf, storageDirOf } from './supervisor';
import {
  ensureSigningCert,
  issuePullTicket,
  issueRegistryToken,
  RUNNER_USERNAME,
  TOKEN_TTL_S,
  verifyPullTicket,
  verifyRegistryToken,
  type PushLimits,
  type SigningCert,
} from './tokens';

// The platform's registry as the rest of the server sees it (docs/publishing.md, "The platform's
// registry"): its host, the token a caller gets for the scopes they ask, and the credential the
// runner pulls a service's image with. Callers reach docker-registry through the platform's proxy
// (registry/proxy.ts), which enforces the storage quota and the image cap carried by push tokens.

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
  readonly proxy: RegistryProxy;

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
    const socket = socketPathOf(dir);
    this.process = new RegistryProcess({
      socket,
      realm: new URL('/v1/registry/token', options.publicUrl).toString(),
      dir,
      certPath: this.cert.certPath,
    });
    this.proxy = new RegistryProxy({
      socket,
      storageDir: this.storageDir,
      verify: (token) => verifyRegistryToken(this.cert, token),
      fallbackLimits: this.limitsOf('free'),
      uploadIdleMs: config.uploadIdleS * 1000,
    });
  }

  /** The proxy takes the public address first (so a taken address starts nothing), then the registry starts behind it. */
  async start(): Promise<void> {
    await this.proxy.listen(this.config.addr).catch(async (error: NodeJS.ErrnoException) => {
      throw error.code === 'EADDRINUSE' ? new Error(await addressInUse(this.config.addr)) : error;
    });
    // An upload the proxy did not see from its first byte cannot be counted: none survives a restart.
    await removeUnfinishedUploads(this.storageDir);
    await this.process.start();
  }

  async close(): Promise<void> {
    await this.garbage.close();
    await this.proxy.close();
    await this.process.stop();
  }

  /** What a push token of a `plan` account carries: its storage quota and its image cap, as this server caps them. */
  private limitsOf(plan: string): PushLimits {
    const imageMb = hostingQuotaOf(plan).imageMb;
    return {
      plan,
      quota_mb: registryQuotaMb(plan, this.config.quotaCapMb),
      image_mb: this.config.imageCapMb === undefined ? imageMb : Math.min(imageMb, this.config.imageCapMb),
    };
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
    let limits: PushLimits | undefined;
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
        const plan = await activePlanOf(this.db, asker.userId);
        const problem = await quotaProblem(this.storageDir, handle, plan, this.config.quotaCapMb);
        if (problem) throw new RegistryDenied(problem);
        // The quota is enforced again on every byte the token writes (registry/proxy.ts).
        limits = this.limitsOf(plan);
      }
    }
    const token = await issueRegistryToken(this.cert, subject, access, TOKEN_TTL_S, limits);
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
      tokenFor: (repository, actions) =>
        issueRegistryToken(this.cert, 'limelight-platform', [{ type: 'repository', name: repository, actions }]),
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
    log.info(
      `platform registry on ${config.addr}, docker-registry behind it on ${socketPathOf(path.join(options.dataDir, 'registry'))} ` +
        `(push to ${config.host}/<your namespace>/<name>:<tag>)`,
    );
    return registry;
  } catch (error) {
    // Said once, in words (the cause and the fix are in the message): no stack for an operator to read.
    log.warn(`the platform registry did not start (${(error as Error).message}); bring-your-own registries still work`);
    return undefined;
  }
}
