export const SERVER: string;
export interface AllowedEdge {
  edge: string;
  why: string;
}
export const ALLOWED: AllowedEdge[];
export interface CruisedModule {
  source: string;
  dependencies?: { resolved: string }[];
}
export function nodeOf(file: string, root?: string): string | undefined;
export function folderEdges(modules: CruisedModule[], root?: string): Map<string, string[]>;
export function folderCycles(edges: Map<string, string[]>, allowed?: AllowedEdge[]): { folders: string[]; loop: string[] }[];
export function setAside(edges: Map<string, string[]>, allowed?: AllowedEdge[]): { edge: string; edges: string[] }[];
export function staleAllowed(edges: Map<string, string[]>, allowed?: AllowedEdge[]): AllowedEdge[];
export function report(edges: Map<string, string[]>, allowed?: AllowedEdge[]): string[];
/** dependency-cruiser's modules of reference-app/server, with the file-level check's settings. */
export function cruise(): CruisedModule[];
