export interface TestRegistry {
  host: string;
  username: string;
  password: string;
  stop(): Promise<void>;
}
export function registryUnavailableReason(): string | null;
export function startRegistry(options?: { port?: number; username?: string; password?: string }): Promise<TestRegistry>;
