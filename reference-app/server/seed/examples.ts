import type { ServiceEndpoint } from '@limelight/widgets/api';
import recorded from './examples.json' with { type: 'json' };

// The examples `npm run examples` recorded (makeExamples.ts): one run of each endpoint
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
  /** URL of the picture shown for the service: the output, or a drawing of it. */
  cover: string;
}

const EXAMPLES: Readonly<Record<string, RecordedExample>> = recorded;

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

/** The picture of a service of this kind: its example's output, or a drawing of it; undefined when it has none. */
export const exampleCover = (kind: string): string | undefined => EXAMPLES[kind]?.cover;
