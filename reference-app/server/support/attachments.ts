import { invalid, tooLarge } from '../errors';
import { MAX_ATTACHMENT_BYTES, MAX_TOTAL_ATTACHMENT_BYTES } from './schemas';

// Support attachments: decoded from base64, checked against the size limits and, for binary
// formats, against the signature their declared type must start with.

export interface AttachmentInput {
  filename: string;
  content_type: string;
  data_base64: string;
}

export interface DecodedAttachment {
  filename: string;
  content_type: string;
  data: Buffer;
}

/** Leading bytes that files of a type must start with; types not listed are not sniffed. */
const SIGNATURES: Record<string, number[][]> = {
  'image/png': [[0x89, 0x50, 0x4e, 0x47]],
  'image/jpeg': [[0xff, 0xd8, 0xff]],
  'image/gif': [[0x47, 0x49, 0x46, 0x38]],
  'image/webp': [[0x52, 0x49, 0x46, 0x46]],
  'application/pdf': [[0x25, 0x50, 0x44, 0x46]],
  'application/zip': [
    [0x50, 0x4b, 0x03, 0x04],
    [0x50, 0x4b, 0x05, 0x06],
  ],
};

function decodeAttachment(index: number, file: AttachmentInput): DecodedAttachment {
  const field = `attachments.${index}`;
  const clean = file.data_base64.replace(/\s+/g, '').replace(/^data:[^,]*,/, '');
  if (!/^[A-Za-z0-9+/_-]*={0,2}$/.test(clean) || clean.length === 0) throw invalid(`${field}.data_base64: must be non-empty base64`);
  const data = Buffer.from(clean, 'base64');
  if (data.length > MAX_ATTACHMENT_BYTES)
    throw tooLarge(`${field}: ${file.filename} is ${data.length} bytes; the limit is ${MAX_ATTACHMENT_BYTES} (5 MB)`);
  const signatures = SIGNATURES[file.content_type];
  if (signatures && !signatures.some((sig) => sig.every((byte, i) => data[i] === byte))) {
    throw invalid(`${field}: ${file.filename} is not a ${file.content_type} file`);
  }
  return { filename: file.filename, content_type: file.content_type, data };
}

/** Every attachment decoded and checked, or the error naming the first bad one. */
export function decodeAttachments(files: readonly AttachmentInput[]): DecodedAttachment[] {
  const decoded = files.map((file, i) => decodeAttachment(i, file));
  const total = decoded.reduce((sum, f) => sum + f.data.length, 0);
  if (total > MAX_TOTAL_ATTACHMENT_BYTES)
    throw tooLarge(`attachments: ${total} bytes in all; the limit is ${MAX_TOTAL_ATTACHMENT_BYTES} (10 MB)`);
  return decoded;
}
