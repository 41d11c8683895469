export const SERVER_ENTRY: string;
export const SERVER_BUNDLE: string;
export const RUNNER_ENTRY: string;
export const RUNNER_BUNDLE: string;
export const SERVER_EXTERNAL: string[];
export function serverBuildIsStale(): boolean;
export function buildServer(): Promise<void>;
