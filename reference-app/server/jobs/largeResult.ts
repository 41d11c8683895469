import { movable, runInThread, type ThreadTask } from '../http/dataThread';
import { confineFileReferences, isOwnMedia } from '../media/ownMedia';
import { JsonText } from '../runtimes/runtime';

// File references in a result are confined to this platform's media before it is stored
// (media/ownMedia.ts). A result kept serialised (JsonText, a large answer) is confined in a data
// thread, so the event loop never parses or serialises it (docs/jobs.md, "Large results and uploads").

interface ConfineInput {
  bytes: Uint8Array;
  publicUrl: string;
}

/** Runs in the data thread: only its arguments and globals. */
const confineText: ThreadTask<ConfineInput, Uint8Array, { confine: typeof confineFileReferences; isOwn: typeof isOwnMedia }> = async (
  input,
  _ask,
  helpers,
) => {
  const value: unknown = JSON.parse(Buffer.from(input.bytes.buffer, input.bytes.byteOffset, input.bytes.byteLength).toString('utf8'));
  const bytes = Buffer.from(JSON.stringify(helpers.confine(value, input.publicUrl, helpers.isOwn)));
  const own = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength;
  return { value: bytes, transfer: own ? [bytes.buffer as ArrayBuffer] : [] };
};

/** The result with every file reference that points elsewhere turned into plain data. */
export async function confineResult(result: unknown, publicUrl: string): Promise<unknown> {
  if (!(result instanceof JsonText)) return confineFileReferences(result, publicUrl);
  const bytes = await runInThread(
    confineText,
    { bytes: result.bytes, publicUrl },
    { helpers: { confine: confineFileReferences, isOwn: isOwnMedia }, transfer: movable(result.bytes) },
  );
  return new JsonText(bytes);
}
