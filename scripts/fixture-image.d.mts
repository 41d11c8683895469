export const FIXTURE_IMAGE: string;
export function buildFixtureImage(tag?: string): string;
export function sharedLibraries(binary: string): string[];
export function copyInto(root: string, file: string): void;
