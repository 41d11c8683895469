import type { UrlPolicy } from '../runtimes/http/urlPolicy';
import type { RuntimeRegistry } from '../hosting/runtimeRegistry';

// What publishing's routes need from the rest of the server. Its own module, below both
// v1/deps.ts (which carries it) and publishing/routes.ts (which uses it), so neither imports the
// other.

export interface ServiceRoutesOptions {
  /** Which service URLs the platform calls (runs, health checks, imports). */
  urlPolicy: UrlPolicy;
  /** How each service runs: health checks and container deployments. */
  runtimes: RuntimeRegistry;
  /** Stores a card image and answers its public URL. */
  storeImage(bytes: Uint8Array, contentType: string): Promise<string>;
}
