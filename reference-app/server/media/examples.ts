import type { ServiceEndpoint } from '@limelight/widgets/api';
import recorded from './examples.json' with { type: 'json' };

// The examples `npm run examples` recorded (seed/makeExamples.ts): one run of each endpoint
// template's example input, its output stored as example media. The seed gives each service
// its template's example (the Playground opens on it) and its cover picture (catalogue cards,
// the home showcase and the service header show it instead of initials).

export interface RecordedExample {
  /** Absent where the template carries its own example (lime-ocr, the chat). */
  input?: Record<string, unknown>;
  result?: unknown;
  /** The runtime that made it: "local" (a real model) or "local-demo". */
  runtime: string;
  /** How long the run took, seconds; null where it was not timed here. */
  run_seconds: number | null;
  /** URL of a picture of the example: the output, or a drawing of it. */
  cover: string;
  /**
   * What that picture shows: the output's own picture, the example's input picture (lime-ocr),
   * the waveform of the output's sound, or text drawn on a backdrop.
   */
  cover_from: 'output' | 'input' | 'sound' | 'text';
}

const EXAMPLES: Readonly<Record<string, RecordedExample>> = recorded as Record<string, RecordedExample>;

/** The template's endpoints with the recorded example on the first (the one the Playground opens). */
export function withExample(kind: string, endpoints: readonly ServiceEndpoint[]): ServiceEndpoint[] {
  const example = EXAMPLES[kind];
  return endpoints.map((endpoint, i) => {
    if (i > 0 || !example) return endpoint;
    const made = { runtime: example.runtime, ...(example.run_seconds === null ? {} : { run_seconds: example.run_seconds }) };
    if (endpoint.example) return { ...endpoint, example: { ...endpoint.example, ...made } };
    if (example.result === undefined) return endpoint;
    return { ...endpoint, example: { input: example.input, result: example.result, ...made } };
  });
}

/** The picture of a service of this kind's example: its output, or a drawing of it; undefined when it has none. */
export const exampleCover = (kind: string): string | undefined => EXAMPLES[kind]?.cover;

/**
 * The cover of a service of this kind when its example is a real one worth showing: made by a
 * real model (not the demo runtime) and a picture or a sound, not text drawn as a picture
 * (issue 50: a demo's output or a screenshot of text is never a cover). Undefined otherwise: the
 * service gets its designed cover (media/covers.ts).
 */
export function realExampleCover(kind: string): string | undefined {
  const example = EXAMPLES[kind];
  return example && example.runtime !== 'local-demo' && example.cover_from !== 'text' ? example.cover : undefined;
}

/**
 * Example pictures that are no cover: the demo runtime's outputs and text drawings. Databases
 * seeded before issue 50 still name them as covers; the catalogue shows the designed cover instead.
 */
export const NOT_COVERS: ReadonlySet<string> = new Set(
  Object.entries(EXAMPLES)
    .filter(([kind]) => realExampleCover(kind) === undefined)
    .map(([, example]) => example.cover),
);
