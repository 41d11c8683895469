export const CONTAINERS_CONF: string;
export const REGISTRIES_CONF: string;
export const RUNSC_SANDBOX: string;
export function podmanEnv(): NodeJS.ProcessEnv;
export function podmanUnavailableReason(): string | null;
export function runscUnavailableReason(): string | null;
export function startPodmanService(
  socketPath: string,
  options?: { sandbox?: 'none' | 'gvisor'; env?: Record<string, string> },
): Promise<{ dockerHost: string; socketPath: string; stop(): Promise<void> }>;
