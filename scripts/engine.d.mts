export const CONTAINERS_CONF: string;
export const REGISTRIES_CONF: string;
export function podmanEnv(): NodeJS.ProcessEnv;
export function podmanUnavailableReason(): string | null;
export function startPodmanService(socketPath: string): Promise<{ dockerHost: string; socketPath: string; stop(): Promise<void> }>;
