export const SERVER: string;
export const SKIPPED: string[];
export const WHY: RegExp;
export interface ServerImport {
  file: string;
  line: number;
  statement: string;
  specifier: string;
  target: string;
  names: string[];
  why: string | undefined;
}
export function testFiles(root?: string, skipped?: string[]): string[];
export function resolveSpecifier(root: string, fromFile: string, specifier: string): string | undefined;
export function moduleOf(serverFile: string): string;
export function isEntry(serverFile: string): boolean;
export function entryOf(root: string, serverFile: string): string | undefined;
export function exportsOf(root: string, file: string, seen?: Set<string>): Set<string>;
export function serverImports(root: string, file: string, text?: string): ServerImport[];
export function problemsOf(root: string, imports: ServerImport[]): string[];
export function allImports(root?: string): ServerImport[];
