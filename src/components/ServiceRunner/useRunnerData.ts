import { useEffect, useState } from 'react';
import type { JobsClient } from '../../api/jobs';
import { FINAL_JOB_STATUSES, type Job, type JobLogLine } from '../../api/types';
import { createPriceBasisClient } from '../../api/modelManagement';
import { useApiClient } from '../../config/useApiClient';
import { useAuth } from '../../auth/AuthProvider';
import { estimateRun, type RunEstimate } from '../../run/estimate';

/** How many recent runs the runner lists. */
export const RECENT_RUNS_LIMIT = 5;

export type Loadable<T> = { status: 'loading' } | { status: 'ready'; value: T } | { status: 'error'; message: string; httpStatus: number };

/**
 * The caller's latest runs of a service, newest first. Reloads when `refreshKey` changes (the
 * runner bumps it when a run ends). Anonymous visitors get an error with status 401.
 */
export function useRecentRuns(jobs: JobsClient, serviceId: string, refreshKey: unknown, enabled = true): Loadable<Job[]> {
  const [state, setState] = useState<Loadable<Job[]>>({ status: 'loading' });
  useEffect(() => {
    if (!enabled) return;
    let live = true;
    void jobs.list({ service_id: serviceId, limit: RECENT_RUNS_LIMIT }).then((result) => {
      if (!live) return;
      setState(
        result.ok ? { status: 'ready', value: result.data.jobs } : { status: 'error', message: result.error, httpStatus: result.status },
      );
    });
    return () => {
      live = false;
    };
  }, [jobs, serviceId, refreshKey, enabled]);
  return state;
}

/** What a run costs and takes, with its basis: the GPU and its price per second. */
export interface PriceBasis extends RunEstimate {
  gpu: string;
  pricePerSecondUsd: number;
  /** What runs it (the server's price basis): a demo is free, a CPU model priced per CPU-second. */
  hardware?: 'demo' | 'cpu' | 'gpu';
}

/**
 * What a run of the endpoint probably costs and takes: the service GPU's price and the measured
 * run times of the endpoint's recent runs, through the same formula the server charges with
 * (src/run/estimate.ts). An anonymous visitor (the job API answers 401) gets the same figures
 * from the public price basis.
 */
export function useRunEstimate(jobs: JobsClient, serviceId: string, endpoint: string | undefined, refreshKey: unknown): PriceBasis | null {
  const priceBasis = useApiClient(createPriceBasisClient, useAuth().store);
  const [estimate, setEstimate] = useState<PriceBasis | null>(null);
  useEffect(() => {
    if (!endpoint) return;
    let live = true;
    void (async () => {
      let result = await jobs.estimate(serviceId, endpoint);
      if (!result.ok && result.status === 401) result = await priceBasis(serviceId, endpoint);
      if (!live) return;
      setEstimate(
        result.ok
          ? {
              ...estimateRun({ pricePerSecondUsd: result.data.price_per_s_usd, recentRunSeconds: result.data.recent_run_seconds }),
              gpu: result.data.gpu,
              pricePerSecondUsd: result.data.price_per_s_usd,
              hardware: result.data.hardware,
            }
          : null,
      );
    })();
    return () => {
      live = false;
    };
  }, [jobs, priceBasis, serviceId, endpoint, refreshKey]);
  return estimate;
}

/** Seconds since `since`, ticking once a second while `running`; the final figure when stopped. */
export function useElapsedSeconds(since: number | null, running: boolean, endedAt: number | null): number | null {
  // The clock is read in effects only: render stays pure (Next's prerender rejects Date.now()).
  const [now, setNow] = useState<number | null>(null);
  useEffect(() => {
    if (!running) return;
    setNow(Date.now());
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [running]);
  if (since === null) return null;
  const end = (running ? now : (endedAt ?? now)) ?? since;
  return Math.max(0, Math.round((end - since) / 1000));
}

/** How many times a finished container job's lines are asked for while none have arrived. */
const JOB_LOG_ATTEMPTS = 5;

/**
 * The lines a finished container job's instance wrote: the job's stream carries them as `log`
 * events the runner does not keep, so they are read once from GET /v1/jobs/{id} when the run
 * ends (docs/jobs.md, "Logs"). Other runtimes write none: nothing is asked for them.
 */
export function useJobLogs(jobs: JobsClient, job: Job | null): JobLogLine[] {
  const [logs, setLogs] = useState<{ jobId: string; lines: JobLogLine[] } | null>(null);
  const jobId = job?.job_id;
  const wanted = job !== null && job.runtime === 'container' && FINAL_JOB_STATUSES.includes(job.status) && !Array.isArray(job.logs);
  useEffect(() => {
    if (!wanted || !jobId) return;
    let live = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    // The server stores a job's lines in batches (every 100 ms), so the answer right after the
    // job ends may not hold them yet: ask again a few times while it holds none.
    const read = (attempt: number) =>
      void jobs.get(jobId).then((result) => {
        if (!live || !result.ok) return;
        const lines = result.data.logs ?? [];
        setLogs({ jobId, lines });
        if (lines.length === 0 && attempt < JOB_LOG_ATTEMPTS) timer = setTimeout(() => read(attempt + 1), 300);
      });
    read(1);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [jobs, jobId, wanted]);
  if (!job) return [];
  if (Array.isArray(job.logs)) return job.logs;
  return logs?.jobId === job.job_id ? logs.lines : [];
}
