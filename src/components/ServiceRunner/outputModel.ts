import type { FileRef, Job, JobLogLine } from '../../api/types';

/**
 * How a job's result is shown: media files by their type, text, and the rest as JSON. Pure, so
 * the rules are tested without a browser.
 */

/** `animation`: an animated image (GIF) a video endpoint returned; `model`: a glTF 3D model. */
export type MediaKind = 'image' | 'animation' | 'audio' | 'video' | 'model' | 'file';

export interface MediaOutput extends FileRef {
  kind: MediaKind;
  /** Where in the result it was found (`image`, `images.0`), for labels and keys. */
  path: string;
}

export interface OutputView {
  media: MediaOutput[];
  /** Text to show as text (a string result, or a `text` field). */
  text: string | null;
  /** Everything that is neither media nor the text, as JSON; null when nothing is left. */
  json: unknown;
}

export function isFileRef(value: unknown): value is FileRef {
  if (!value || typeof value !== 'object') return false;
  const v = value as Record<string, unknown>;
  return typeof v.url === 'string' && typeof v.content_type === 'string';
}

const MODEL_TYPES = new Set(['model/gltf-binary', 'model/gltf+json']);

/**
 * How to present a file. A GIF from a video endpoint (or under a `video` key) is a clip, not a
 * picture, so it is labelled as one.
 */
export function mediaKind(contentType: string, context: { outputType?: string; path?: string } = {}): MediaKind {
  const type = contentType.split(';')[0]!.trim().toLowerCase();
  if (type === 'image/gif' && (context.outputType === 'video' || /(^|\.)(video|clip|animation)s?(\.|$)/.test(context.path ?? '')))
    return 'animation';
  if (MODEL_TYPES.has(type)) return 'model';
  if (type.startsWith('image/')) return 'image';
  if (type.startsWith('audio/')) return 'audio';
  if (type.startsWith('video/')) return 'video';
  return 'file';
}

const KIND_BY_EXTENSION: ReadonlyArray<readonly [RegExp, MediaKind]> = [
  [/\.(png|jpe?g|gif|webp)$/i, 'image'],
  [/\.(wav|mp3|ogg|m4a)$/i, 'audio'],
  [/\.(mp4|webm)$/i, 'video'],
];

/** How to preview a file input given as a URL (an example's `/media/examples/speech.wav`), by its extension. */
export function mediaKindOfUrl(url: string): MediaKind {
  const path = url.split(/[?#]/)[0]!;
  return KIND_BY_EXTENSION.find(([pattern]) => pattern.test(path))?.[1] ?? 'file';
}

const MAX_DEPTH = 4;

/**
 * Splits a result into media, text and the remaining JSON. The text is shown once: copies of it
 * elsewhere in the result (a chat answer's `message.content`) are left out of the JSON.
 */
export function viewOfResult(result: unknown, outputType?: string): OutputView {
  const media: MediaOutput[] = [];
  const top = result && typeof result === 'object' && !Array.isArray(result) ? (result as Record<string, unknown>) : null;
  const text: string | null = top && typeof top.text === 'string' ? top.text : null;

  function strip(value: unknown, path: string, depth: number): unknown {
    if (isFileRef(value)) {
      media.push({
        url: value.url,
        content_type: value.content_type,
        size: value.size,
        kind: mediaKind(value.content_type, { outputType, path }),
        path,
      });
      return undefined;
    }
    if (text !== null && value === text && depth > 0) return undefined;
    if (depth >= MAX_DEPTH || value === null || typeof value !== 'object') return value;
    if (Array.isArray(value)) {
      const kept = value.map((v, i) => strip(v, path ? `${path}.${i}` : String(i), depth + 1)).filter((v) => v !== undefined);
      return kept.length ? kept : undefined;
    }
    const out: Record<string, unknown> = {};
    for (const [key, v] of Object.entries(value)) {
      if (depth === 0 && key === 'text' && typeof v === 'string') continue;
      const kept = strip(v, path ? `${path}.${key}` : key, depth + 1);
      if (kept !== undefined) out[key] = kept;
    }
    return Object.keys(out).length ? out : undefined;
  }

  if (typeof result === 'string') return { media, text: result, json: null };
  const rest = result === null || result === undefined ? undefined : strip(result, '', 0);
  return { media, text, json: rest === undefined ? null : rest };
}

/** Text streamed so far by a running job (the server sends `{ text }` while PROCESSING). */
export function streamedText(job: Job | null): string | null {
  if (!job || job.status !== 'PROCESSING') return null;
  const result = job.result as { text?: unknown } | null;
  return result && typeof result.text === 'string' ? result.text : null;
}

/**
 * An API-given URL made absolute against the API host (an embed runs on another origin), and
 * refused unless http(s) or a data: URI of media, so nothing like `javascript:` reaches an href.
 */
export function safeMediaUrl(url: string, apiUrl: string): string | null {
  try {
    const resolved = new URL(url, `${apiUrl.replace(/\/+$/, '')}/`);
    if (resolved.protocol === 'http:' || resolved.protocol === 'https:') return resolved.href;
    if (resolved.protocol === 'data:' && /^data:(image|audio|video)\//i.test(url)) return url;
    return null;
  } catch {
    return null;
  }
}

const UNITS = ['B', 'KB', 'MB', 'GB'];

/** 1536 -> "1.5 KB" */
export function formatBytes(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes < 0) return '';
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${unit === 0 ? value : value.toFixed(1)} ${UNITS[unit]}`;
}

/** A file name for a download: the URL's last segment, or `output.<subtype>`. */
export function downloadName(media: FileRef): string {
  const last = media.url.split(/[?#]/)[0]!.split('/').pop();
  if (last && last.includes('.')) return last;
  const subtype = media.content_type.split('/')[1]?.split(/[;+]/)[0] ?? 'bin';
  return `${last || 'output'}.${subtype}`;
}

/** A duration for the run's timings: `850 ms`, `1.2 s`. */
export function formatDuration(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`;
}

/**
 * A finished run's timings from the envelope's `metrics` (docs/jobs.md): queue, cold start and
 * run. The cold start is shown for container runs (0 is a warm start, worth saying) and for any
 * run that had one; runtimes that are always up report none.
 */
export function runTimings(job: Job): { queue: number | null; coldStart: number | null; run: number | null } {
  const { queue_ms, run_ms, cold_start_ms } = job.metrics;
  const coldStart = typeof cold_start_ms === 'number' && (cold_start_ms > 0 || job.runtime === 'container') ? cold_start_ms : null;
  return { queue: queue_ms ?? null, coldStart, run: run_ms ?? null };
}

/** The lines the container wrote while the job ran (container runs; none for other runtimes). */
export function jobLogLines(job: Job): JobLogLine[] {
  return Array.isArray(job.logs) ? job.logs : [];
}
