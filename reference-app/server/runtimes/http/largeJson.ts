import { movable, runInThread, type ThreadTask } from '../../http/dataThread';
import { JsonText, type RunContext } from '../runtime';

// A large JSON answer (over LARGE_JSON_BYTES) is never parsed on the event loop: parsing a 45 MB
// answer, storing the media inside it and serialising it again took the loop for seconds
// (docs/jobs.md, "Large results and uploads"). A data thread parses it, shows the main thread its
// job-style fields (answers.ts decides what the answer means), stores the embedded media through
// the main thread and hands back the result serialised, as a JsonText.

/** Answers from this size on are read in a data thread. */
export const LARGE_JSON_BYTES = 1024 * 1024;
/** Embedded media is looked for this deep in a result. */
export const MEDIA_DEPTH = 8;

/** The fields of an answer that say whether it is job-style and how it goes (answers.ts reads them). */
const SHELL_FIELDS = ['id', 'job_id', 'request_id', 'status', 'progress', 'message', 'error', 'urls', 'links', 'status_url', 'cancel_url'];

/**
 * Media embedded in a JSON value: a data: URI, or FastTaskAPI's { content_type | media_type,
 * content: base64 }. Self-contained: the data thread runs it too.
 */
export function embeddedMedia(value: unknown): { contentType: string; base64: string } | undefined {
  if (typeof value === 'string') {
    const match = /^data:([\w.+-]+\/[\w.+-]+)(?:;[^,]*)?;base64,(.*)$/s.exec(value);
    return match ? { contentType: match[1]!, base64: match[2]! } : undefined;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const object = value as Record<string, unknown>;
  const contentType = object.content_type ?? object.media_type;
  if (typeof contentType === 'string' && typeof object.content === 'string' && /^[\w.+-]+\/[\w.+-]+/.test(contentType)) {
    return { contentType, base64: object.content };
  }
  return undefined;
}

/** Which part of the answer is the result: the whole body (null), the first set field of these, or none (false). */
export type ResultPart = readonly string[] | null | false;

interface ReadInput {
  bytes: Uint8Array;
  shellFields: string[];
  mediaDepth: number;
}
type ReadOutput = { invalid: true } | { shell: Record<string, unknown> | undefined; bytes?: Uint8Array };

/** Runs in the data thread: only its arguments and globals. */
const readAnswer: ThreadTask<ReadInput, ReadOutput, { embeddedMedia: typeof embeddedMedia }> = async (input, ask, helpers) => {
  let body: unknown;
  try {
    body = JSON.parse(Buffer.from(input.bytes.buffer, input.bytes.byteOffset, input.bytes.byteLength).toString('utf8'));
  } catch {
    return { value: { invalid: true } };
  }
  const object = typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as Record<string, unknown>) : undefined;
  const shell = object ? Object.fromEntries(input.shellFields.filter((key) => key in object).map((key) => [key, object[key]])) : undefined;
  const part = (await ask({ shell })) as ResultPart;
  if (part === false) return { value: { shell } };
  let result: unknown = body;
  if (part) result = part.map((key) => object?.[key]).find((value) => value !== undefined && value !== null) ?? null;

  // Embedded media becomes a slot, filled with the stored file's reference below.
  const media: Array<{ contentType: string; bytes: Uint8Array }> = [];
  const slots = new Map<object, number>();
  const walk = (value: unknown, depth: number): unknown => {
    if (depth > input.mediaDepth) return value;
    const found = helpers.embeddedMedia(value);
    if (found) {
      const slot = {};
      slots.set(slot, media.push({ contentType: found.contentType, bytes: Buffer.from(found.base64, 'base64') }) - 1);
      return slot;
    }
    if (Array.isArray(value)) return value.map((item) => walk(item, depth + 1));
    if (typeof value !== 'object' || value === null) return value;
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) out[key] = walk(item, depth + 1);
    return out;
  };
  result = walk(result, 0);
  const refs = media.length > 0 ? ((await ask({ media })) as unknown[]) : [];
  const text = JSON.stringify(result, (_key, value: unknown) =>
    typeof value === 'object' && value !== null && slots.has(value) ? refs[slots.get(value)!] : value,
  );
  const bytes = Buffer.from(text);
  const own = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength;
  return { value: { shell, bytes }, transfer: own ? [bytes.buffer as ArrayBuffer] : [] };
};

/**
 * Reads a large JSON answer in a data thread. `partOf` tells from the answer's job-style fields
 * (its shell) which part is the result. Throws a SyntaxError when the answer is not JSON.
 */
export async function readLargeJson(
  bytes: Uint8Array,
  ctx: Pick<RunContext, 'storeMedia' | 'signal'>,
  partOf: (shell: Record<string, unknown> | undefined) => ResultPart,
): Promise<{ shell: Record<string, unknown> | undefined; result?: JsonText }> {
  const output = await runInThread(
    readAnswer,
    { bytes, shellFields: SHELL_FIELDS, mediaDepth: MEDIA_DEPTH },
    {
      helpers: { embeddedMedia },
      // Moved, not copied: the caller does not read the bytes again.
      transfer: movable(bytes),
      signal: ctx.signal,
      async answer(request) {
        const asked = request as { shell?: Record<string, unknown>; media?: Array<{ contentType: string; bytes: Uint8Array }> };
        if (asked.media) return { value: await Promise.all(asked.media.map((file) => ctx.storeMedia(file.bytes, file.contentType))) };
        return { value: partOf(asked.shell) };
      },
    },
  );
  if ('invalid' in output) throw new SyntaxError('The answer is not JSON');
  return { shell: output.shell, ...(output.bytes ? { result: new JsonText(output.bytes) } : {}) };
}
