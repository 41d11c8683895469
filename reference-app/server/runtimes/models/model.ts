import type { RunContext, RunResult } from '../runtime';
import type { ModelsConfig } from './config';

// One real model behind a seeded service: which binary runs it, what loading it means (found,
// asked for its version and languages, once per process) and one run.

/** What a model learnt when it loaded (its version, its installed languages or voices). */
export type Loaded = Record<string, unknown> & { version: string };

export interface ModelRun {
  /** The located program ('' for a model that runs in a worker thread of its own). */
  binary: string;
  loaded: Loaded;
  memoryMb: number;
  /** Told each child process's pid (the models bench samples its memory). */
  onStart?: (pid: number) => void;
}

export interface ModelTool {
  /** The seeded service it runs. */
  service: string;
  /** The endpoint it runs (a seeded service's other endpoints stay on the demo). */
  endpoint: string;
  /** The model as the health check and docs name it. */
  model: string;
  /** The program to find, as configured; undefined for a model with no program of its own. */
  binary(config: ModelsConfig): string | undefined;
  /** Data files the model needs besides its program (its weights), as configured; a missing one sends the service to the demo. */
  files?(config: ModelsConfig): string[];
  load(binary: string, options: { memoryMb: number; config: ModelsConfig }): Promise<Loaded>;
  run(input: Record<string, unknown>, ctx: RunContext, run: ModelRun): Promise<RunResult>;
}
