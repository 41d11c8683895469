export function packageOf(specifier: string): string;
export function isBuiltin(specifier: string): boolean;
export function builtImports(dir: string, skip?: string[]): Promise<Map<string, string>>;
export function dependencyProblems(
  pkg: { name?: string; dependencies?: Record<string, string>; peerDependencies?: Record<string, string> },
  importers: Map<string, string>,
): string[];
