// File inputs: a job input names a file by URL (what `POST /v1/files` answers) or inlines it as a
// data: URI. Inline files are capped so a job row stays small (docs/jobs.md: limits).

/** Largest file accepted inline as a data: URI, in decoded bytes. */
export const MAX_DATA_URI_BYTES = 1024 * 1024;

const DATA_URI = /^data:([\w.+-]+\/[\w.+-]+)?((?:;[\w-]+=[^;,]*)*)(;base64)?,/i;

export interface DataUriParts {
  contentType: string;
  base64: boolean;
  /** Everything after the comma, still encoded. */
  payload: string;
}

/** Splits a data: URI, or undefined when the string is not one. */
export function parseDataUri(value: string): DataUriParts | undefined {
  const match = DATA_URI.exec(value);
  if (!match) return undefined;
  return { contentType: (match[1] ?? 'text/plain').toLowerCase(), base64: Boolean(match[3]), payload: value.slice(match[0].length) };
}

/** Decoded size of a data: URI's payload, computed without decoding it. */
export function dataUriSize(parts: DataUriParts): number {
  if (!parts.base64) {
    // Percent-escapes are one byte each; everything else counts as written (ASCII in practice).
    const escapes = parts.payload.match(/%[0-9a-f]{2}/gi)?.length ?? 0;
    return parts.payload.length - escapes * 2;
  }
  const clean = parts.payload.replace(/\s/g, '');
  const padding = clean.endsWith('==') ? 2 : clean.endsWith('=') ? 1 : 0;
  return Math.floor((clean.length * 3) / 4) - padding;
}

/** http(s) URLs and site-relative paths are file references the server resolves. */
export function isFileUrl(value: string): boolean {
  if (value.startsWith('/')) return !value.startsWith('//');
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}
