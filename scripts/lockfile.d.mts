export function incompleteEntries(lock: { packages?: Record<string, { optionalDependencies?: Record<string, string> }> }): string[];
export function npmCiProblem(lockFile?: string): string | undefined;
