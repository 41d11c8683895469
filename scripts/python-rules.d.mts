export const RULES_SOURCES: string;
export const PYTHON_RULES: string;
export function pythonRules(rules: Record<string, unknown>): string;
export function loadRules(): Promise<Record<string, unknown>>;
