export const FIXTURE_IMAGE: string;
export function buildFixtureImage(tag?: string): string;
