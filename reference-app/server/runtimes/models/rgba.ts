import { decodeRgba, ImageRefusedError } from '../../media/imageDecode';
import { MAX_IMAGE_PIXELS } from '../../media/imageHeader';
import type { RunContext } from '../runtime';
import { fileRef, invalid } from '../local/inputs';

// The image input of a model that works on pixels in a worker thread (the cutout, the face
// detector): decoded to RGBA on libvips's threads, refused as `<name>: …` when it is no image the
// platform accepts, and copied into a buffer of its own so it can be moved to the thread.

export async function rgbaInput(ctx: RunContext, input: Record<string, unknown>, name = 'image') {
  const file = await ctx.readFile(fileRef(input, name));
  let decoded: { data: Buffer; width: number; height: number };
  try {
    decoded = await decodeRgba(file.bytes, MAX_IMAGE_PIXELS);
  } catch (cause) {
    if (cause instanceof ImageRefusedError) throw invalid(name, cause.message, cause);
    throw cause;
  }
  const { width, height } = decoded;
  const data = new Uint8Array(decoded.data.buffer.slice(decoded.data.byteOffset, decoded.data.byteOffset + decoded.data.byteLength));
  return { data, width, height };
}
