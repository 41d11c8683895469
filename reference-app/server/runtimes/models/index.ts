import { existsSync } from 'node:fs';
import { RuntimeError, type Runtime, type RuntimeSlots } from '../runtime';
import type { ModelsConfig } from './config';
import { cutoutModel } from './cutout';
import { detectModel } from './detect';
import type { Loaded, ModelTool } from './model';
import { ocrModel } from './ocr';
import { createLimiter, locate } from './tool';
import { transcribeModel } from './transcribe';
import { voiceModel } from './voice';

// The local model runtime (the server README, "Local models"): the seeded services for which a
// real model runs on a CPU compute real results here, labelled `runtime: "local"`. A model is
// found the first time its service is asked for (its program on PATH or at the configured path)
// and loaded once per process on its first run; its runs take turns within
// LOCAL_MODEL_CONCURRENCY. A service whose model is missing, or failed to load, runs on the
// local demo runtime instead, whose outputs say so.

export const LOCAL_MODEL = 'local';
/** Its jobs compute on this machine's CPU: the local slot pool. */
export const LOCAL_MODEL_SLOTS: RuntimeSlots = { name: LOCAL_MODEL, pool: 'local' };

export const MODELS: readonly ModelTool[] = [ocrModel, voiceModel, cutoutModel, transcribeModel, detectModel];

/** Whether a service runs on its real model here, and why not. */
export interface ModelStatus {
  model: string;
  available: boolean;
  detail: string;
}

export interface ModelRuntimes {
  /** The runtime of a service whose model is here; undefined for every other service (the registry uses the demo). */
  runtimeFor(serviceId: string): Runtime | undefined;
  /** For the owner's health check; undefined for services without a real model. */
  status(serviceId: string): ModelStatus | undefined;
}

export interface ModelRuntimeOptions {
  /** The models to offer (tests, the bench); default MODELS. */
  models?: readonly ModelTool[];
  /** Told each model process's pid (the bench samples its memory). */
  onStart?: (pid: number) => void;
}

interface Entry {
  tool: ModelTool;
  /** The located program; '' for a model without one; undefined until looked for. */
  binary?: string | null;
  loading?: Promise<Loaded>;
  /** Why the model cannot run here (not found, failed to load): its service is on the demo. */
  missing?: string;
  runtime?: Runtime;
}

export function createModelRuntimes(config: ModelsConfig, options: ModelRuntimeOptions = {}): ModelRuntimes {
  const entries = new Map<string, Entry>((options.models ?? MODELS).map((tool) => [tool.service, { tool }]));
  const limiters = new Map([...entries.keys()].map((service) => [service, createLimiter(config.concurrency)] as const));

  /** Looks for the model's program once; records why it is missing. */
  const find = (entry: Entry): string | undefined => {
    if (entry.binary === undefined) {
      const wanted = entry.tool.binary(config);
      entry.binary = wanted === undefined ? '' : (locate(wanted, config.searchPath) ?? null);
      if (entry.binary === null) entry.missing = `${wanted} is not installed (not found on PATH or at that path)`;
      const absent = entry.tool.files?.(config).find((file) => !existsSync(file));
      if (!entry.missing && absent) entry.missing = `${absent} is not installed (the model's data file is missing)`;
    }
    return entry.missing ? undefined : (entry.binary ?? undefined);
  };

  const load = (entry: Entry, binary: string): Promise<Loaded> =>
    (entry.loading ??= entry.tool.load(binary, { memoryMb: config.memoryMb, config }).catch((cause: unknown) => {
      entry.missing = `${entry.tool.model} failed to load: ${(cause as Error).message}`;
      throw new RuntimeError('model_unavailable', `${entry.missing}. The next runs of ${entry.tool.service} use the local-demo runtime.`, {
        cause,
      });
    }));

  const runtimeOf = (entry: Entry, binary: string): Runtime =>
    (entry.runtime ??= {
      name: LOCAL_MODEL,
      async run(input, ctx) {
        if (ctx.endpoint.method === 'GET' && ctx.endpoint.path === '/health') {
          return { status: 'ok', runtime: LOCAL_MODEL, model: entry.tool.model };
        }
        if (ctx.endpoint.path !== entry.tool.endpoint) {
          throw new RuntimeError(
            'unsupported_endpoint',
            `${entry.tool.service} runs ${entry.tool.endpoint} on its model, not ${ctx.endpoint.path}`,
          );
        }
        return limiters.get(entry.tool.service)!.run(ctx.signal, async () => {
          ctx.progress(0.02, 'Loading the model');
          const loaded = await load(entry, binary);
          return entry.tool.run(input ?? {}, ctx, { binary, loaded, memoryMb: config.memoryMb, onStart: options.onStart });
        });
      },
    });

  return {
    runtimeFor(serviceId) {
      const entry = config.enabled ? entries.get(serviceId) : undefined;
      const binary = entry ? find(entry) : undefined;
      return entry && binary !== undefined ? runtimeOf(entry, binary) : undefined;
    },
    status(serviceId) {
      const entry = entries.get(serviceId);
      if (!entry) return undefined;
      const { model } = entry.tool;
      if (!config.enabled) return { model, available: false, detail: `LOCAL_MODELS=off: runs on the local demo runtime, not ${model}` };
      find(entry);
      if (entry.missing) return { model, available: false, detail: `Runs on the local demo runtime: ${entry.missing}` };
      return { model, available: true, detail: `Runs ${model} on this server (local runtime)` };
    },
  };
}
