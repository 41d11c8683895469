export function nodeImageTag(): string;
export function buildNodeImage(options?: { force?: boolean }): string;
