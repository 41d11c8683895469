import type { ServiceEndpoint } from '@limelight/widgets/api';

// The contract between the job queue (server/jobs) and whatever computes a job's output. The
// queue validates the input, claims the job, builds a RunContext and calls `run`; a runtime never
// touches the database, the ledger or HTTP responses. Implementations: runtimes/local (the
// embedded demo runtimes, labelled "local-demo") and runtimes/http (a publisher's own URL).

/** A stored media file, as the API returns it (`POST /v1/files` answers the same shape). */
export interface MediaRef {
  url: string;
  content_type: string;
  size: number;
}

/** A file input resolved from a `/v1/files/...` URL or a `data:` URI. */
export interface InputFile {
  bytes: Uint8Array;
  contentType: string;
}

/** What a running job may tell the queue while it works. */
export interface RunContext {
  readonly jobId: string;
  /**
   * Which delivery of the job this is: 1 first, one more after each redelivery of a job whose
   * worker was lost (docs/jobs.md, "Delivered at least once").
   */
  readonly attempt: number;
  readonly serviceId: string;
  readonly endpoint: ServiceEndpoint;
  /** Aborted when the owner cancels or the endpoint's time limit passes: stop promptly. */
  readonly signal: AbortSignal;
  /**
   * Report progress between 0 and 1, with an optional human-readable status message (the queue
   * keeps at most MESSAGE_MAX_CHARS of it; an error's message is bounded the same way).
   */
  progress(fraction: number, message?: string): void;
  /** Append streamed text (chat tokens, transcripts) before the final result. */
  partialText(delta: string): void;
  /** Store produced media; the returned reference goes into the result. */
  storeMedia(bytes: Uint8Array, contentType: string): Promise<MediaRef>;
  /** Read a file input given as a stored-file URL or a data: URI. */
  readFile(urlOrDataUri: string): Promise<InputFile>;
}

/** The final output: JSON, in which media appear as MediaRef objects. */
export type RunResult = unknown;

export interface Runtime {
  /** Shown to users as the job's `runtime`, e.g. "local-demo" or "http". */
  readonly name: string;
  run(input: Record<string, unknown>, ctx: RunContext): Promise<RunResult>;
}

/**
 * The slot pools of a process's worker (docs/jobs.md: queue): `local` for runtimes that compute
 * on this machine, `io` for those that wait on the network, so slow remote services never hold
 * the local runtimes' slots.
 */
export type SlotPool = 'local' | 'io';

/**
 * What a runtime declares to the queue, which claims jobs before any runtime is chosen: the
 * `runtime` its jobs record (its `name`) and the slot pool they run in (registry.ts collects them).
 */
export interface RuntimeSlots {
  readonly name: string;
  readonly pool: SlotPool;
}

/** Thrown by a runtime for a failure the user should read (becomes the job's error). */
export class RuntimeError extends Error {
  override name = 'RuntimeError';
  constructor(
    readonly code: string,
    message: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}

/**
 * A JSON result kept serialised, as UTF-8 bytes: one too large to parse or stringify on the event
 * loop (runtimes/http/largeJson.ts). The queue stores it as it is (docs/jobs.md, "Result sizes").
 */
export class JsonText {
  constructor(readonly bytes: Uint8Array) {}
}

// Text a service reports is bounded where the platform receives it (docs/jobs.md, "Text from
// services"): a progress message is stored in the job and sent to every reader of it (the job,
// the list, the stream, webhooks), an error message likewise, a log line is kept in the runner's
// ring and the database. Without a bound, a service's 10 MB message went to every caller.

/** Ends a text that was cut, so a reader knows words are missing. */
export const CUT_MARK = ' …[cut]';
/** A service's own words quoted inside an error message ("The service answered 500: …"). */
export const SERVICE_WORDS_MAX_CHARS = 300;
/** A job's progress message and its error message, as stored and sent. */
export const MESSAGE_MAX_CHARS = 1000;

/**
 * `text` in at most `max` characters (UTF-16 code units, the cut mark included): unchanged when it
 * fits, else cut and ended with CUT_MARK. The cut never halves a character: half a surrogate pair
 * is no text PostgreSQL stores (jsonb refuses it). The answer is a copy through UTF-8, which also
 * turns a lone surrogate the service sent into U+FFFD, as storing it would: a slice would keep the
 * whole text alive in V8 (a 1000-character slice of a 10 MB message holds the 10 MB).
 */
export function boundText(text: string, max: number): string {
  if (!Number.isInteger(max) || max <= CUT_MARK.length) throw new RangeError(`boundText: max must be an integer over ${CUT_MARK.length}`);
  let kept = text;
  if (text.length > max) {
    let end = max - CUT_MARK.length;
    const last = text.charCodeAt(end - 1);
    if (last >= 0xd800 && last <= 0xdbff) end -= 1;
    kept = `${text.slice(0, end)}${CUT_MARK}`;
  }
  return Buffer.from(kept, 'utf8').toString('utf8');
}
