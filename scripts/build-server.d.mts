export const SERVER_ENTRY: string;
export const SERVER_BUNDLE: string;
export const RUNNER_ENTRY: string;
export const RUNNER_BUNDLE: string;
export const SERVER_EXTERNAL: string[];
/** The newest modification time (ms) of a file or of anything under a directory; 0 when missing. */
export function newestMtime(target: string): number;
export function serverBuildIsStale(): boolean;
export function buildServer(): Promise<void>;
