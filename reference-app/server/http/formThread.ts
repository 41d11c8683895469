import { movable, runInThread, type ThreadTask } from './dataThread';

// Parsing a multipart body of many megabytes (an upload for a file input) took the event loop
// for over a second; the body is read as bytes and parsed in a data thread instead
// (docs/jobs.md, "Large results and uploads").

/** One file of a form field: its declared type and its bytes. */
export interface FormFile {
  type: string;
  bytes: Uint8Array;
}

/** What a form field holds: its files, and how many values that are not files it had. */
export interface FormField {
  files: FormFile[];
  others: number;
}

interface FieldInput {
  body: Uint8Array;
  contentType: string;
  field: string;
}

/** Runs in the data thread: only its arguments and globals. */
const readField: ThreadTask<FieldInput, FormField | undefined> = async (input) => {
  let form: FormData;
  try {
    form = await new Response(input.body as Uint8Array<ArrayBuffer>, { headers: { 'content-type': input.contentType } }).formData();
  } catch {
    return { value: undefined };
  }
  const files: Array<{ type: string; bytes: Uint8Array }> = [];
  let others = 0;
  for (const value of form.getAll(input.field)) {
    if (typeof value === 'string') others++;
    else files.push({ type: value.type, bytes: new Uint8Array(await value.arrayBuffer()) });
  }
  return { value: { files, others }, transfer: files.map((file) => file.bytes.buffer as ArrayBuffer) };
};

/** The values of one field of a multipart/form-data body, parsed off the event loop; undefined when the body is not a form. */
export function readFormField(body: Uint8Array, contentType: string, field: string): Promise<FormField | undefined> {
  return runInThread(readField, { body, contentType, field }, { transfer: movable(body) });
}
