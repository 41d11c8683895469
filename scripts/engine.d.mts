export const CONTAINERS_CONF: string;
export const REGISTRIES_CONF: string;
export const RUNSC_SANDBOX: string;
export function podmanEnv(): NodeJS.ProcessEnv;
export function podmanUnavailableReason(): string | null;
export function runscUnavailableReason(): string | null;
export function startPodmanService(
  socketPath: string,
  /** `cdiSpecDir`: the service sees the CDI specifications of that folder and no others (the GPU test's stand-in devices). */
  options?: { sandbox?: 'none' | 'gvisor'; env?: Record<string, string>; cdiSpecDir?: string },
): Promise<{ dockerHost: string; socketPath: string; stop(): Promise<void> }>;
