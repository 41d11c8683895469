export function sourceEntries(): Record<string, string>;
export function sourceAliases(): Array<{ find: RegExp; replacement: string }>;
export const projectRoot: string;
export const packageName: string;
