import type { Context, MiddlewareHandler } from 'hono';
import { routePath } from 'hono/route';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { DatabaseHandle } from '../db/connect';
import { deploymentsByStatus, queuedJobsByPool } from '../db/gauges';
import { isLoopbackClient } from './clientIp';
import { takeLoopDelay } from './loopDelay';

// /metrics in the Prometheus text format (docs/deploy.md, "Metrics"): requests by route pattern
// (never the raw path, whose ids would make a series per job), the queue by slot pool, job
// pickup and run times, the database pool, its errors and reconnects, the event loop's delay
// and container deployments by status. The queue and deployment figures are read from the
// database when scraped; while it is unreachable they are left out, the rest still answers.
// Readers: a bearer METRICS_TOKEN from anywhere, else only this machine (not through a proxy).

const SECONDS_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300];

// Process metrics (CPU, memory, GC, handles) once per process, whatever the number of platforms
// a test starts in it.
let processRegistry: Registry | undefined;
function processMetrics(): Registry {
  if (!processRegistry) {
    processRegistry = new Registry();
    collectDefaultMetrics({ register: processRegistry });
  }
  return processRegistry;
}

/** The pool a job's runtime runs in (jobs/worker.ts): `io` for remote services, `local` for the rest. */
export type SlotPool = 'local' | 'io';

export interface JobObserver {
  /** A worker claimed a job that had waited `pickupSeconds` since it was queued. */
  claimed(pool: SlotPool, pickupSeconds: number): void;
  /** A job ended with `status` after running `runSeconds`. */
  ended(pool: SlotPool, status: string, runSeconds: number): void;
}

export interface PlatformMetrics {
  /** Counts and times every request by its route pattern. */
  middleware: MiddlewareHandler;
  /** GET /metrics. */
  handler(c: Context): Promise<Response>;
  jobs: JobObserver;
}

export function createMetrics(options: {
  database: DatabaseHandle;
  ioRuntimes: readonly string[];
  metricsToken: string | undefined;
  trustProxy: number;
}): PlatformMetrics {
  const { database } = options;
  const registry = new Registry();
  const requests = new Counter({
    name: 'limelight_http_requests_total',
    help: 'HTTP requests answered, by method, route pattern and status',
    labelNames: ['method', 'route', 'status'],
    registers: [registry],
  });
  const latency = new Histogram({
    name: 'limelight_http_request_duration_seconds',
    help: 'Time to answer (to the response head for streams), by method and route pattern',
    labelNames: ['method', 'route'],
    buckets: SECONDS_BUCKETS,
    registers: [registry],
  });
  const pickup = new Histogram({
    name: 'limelight_job_pickup_seconds',
    help: 'Time from queued to claimed, by slot pool',
    labelNames: ['pool'],
    buckets: SECONDS_BUCKETS,
    registers: [registry],
  });
  const run = new Histogram({
    name: 'limelight_job_run_seconds',
    help: 'Time from claimed to ended, by slot pool and final status',
    labelNames: ['pool', 'status'],
    buckets: SECONDS_BUCKETS,
    registers: [registry],
  });
  const queued = new Gauge({
    name: 'limelight_jobs_queued',
    help: 'Jobs waiting to be claimed, by slot pool',
    labelNames: ['pool'],
    registers: [registry],
  });
  const oldest = new Gauge({
    name: 'limelight_jobs_oldest_queued_seconds',
    help: 'Age of the oldest job waiting to be claimed, by slot pool',
    labelNames: ['pool'],
    registers: [registry],
  });
  const deployments = new Gauge({
    name: 'limelight_container_deployments',
    help: 'Container deployments by status',
    labelNames: ['status'],
    registers: [registry],
  });
  const up = new Gauge({ name: 'limelight_db_up', help: '1 while the database answers, 0 while it is unreachable', registers: [registry] });
  const connections = new Gauge({
    name: 'limelight_db_pool_connections',
    help: 'PostgreSQL pool connections: total, idle, and requests waiting for one',
    labelNames: ['state'],
    registers: [registry],
  });
  const dbErrors = new Counter({
    name: 'limelight_db_connection_errors_total',
    help: 'Database connection errors seen',
    registers: [registry],
  });
  const reconnects = new Counter({
    name: 'limelight_db_reconnects_total',
    help: 'Times the database came back after being unreachable',
    registers: [registry],
  });
  const loopMax = new Gauge({
    name: 'limelight_event_loop_delay_max_seconds',
    help: 'Longest event-loop stall since the previous scrape',
    registers: [registry],
  });
  const loopP99 = new Gauge({
    name: 'limelight_event_loop_delay_p99_seconds',
    help: 'p99 event-loop delay since the previous scrape',
    registers: [registry],
  });

  /** Figures read when scraped: the database's state and the loop's delay. */
  async function refresh(): Promise<void> {
    const { health } = database;
    up.set(health.available ? 1 : 0);
    dbErrors.reset();
    dbErrors.inc(health.errors);
    reconnects.reset();
    reconnects.inc(health.reconnects);
    const pool = database.poolStats?.();
    if (pool) for (const [state, value] of Object.entries(pool)) connections.set({ state }, value);
    const delay = takeLoopDelay();
    loopMax.set(delay.maxMs / 1000);
    loopP99.set(delay.p99Ms / 1000);
    queued.reset();
    oldest.reset();
    deployments.reset();
    if (!health.available) return;
    try {
      const rows = await queuedJobsByPool(database.db, options.ioRuntimes);
      for (const pool of ['local', 'io'] as const) {
        const row = rows.find((r) => r.pool === pool);
        queued.set({ pool }, row?.n ?? 0);
        oldest.set({ pool }, row?.age ?? 0);
      }
      for (const { status, n } of await deploymentsByStatus(database.db)) deployments.set({ status }, n);
    } catch {
      // The database went away meanwhile: its health says so; these series are left out.
    }
  }

  const allowed = (c: Context) => {
    if (options.metricsToken) return c.req.header('authorization') === `Bearer ${options.metricsToken}`;
    return isLoopbackClient(c, options.trustProxy);
  };

  return {
    async middleware(c, next) {
      const started = performance.now();
      await next();
      const route = c.res.status === 404 ? 'unmatched' : routePath(c) || 'unmatched';
      const method = c.req.method;
      requests.inc({ method, route, status: String(c.res.status) });
      latency.observe({ method, route }, (performance.now() - started) / 1000);
    },
    async handler(c) {
      if (!allowed(c)) {
        return c.json(
          { detail: 'Metrics are readable from this machine, or with the bearer token METRICS_TOKEN' },
          options.metricsToken ? 401 : 403,
        );
      }
      await refresh();
      const merged = Registry.merge([processMetrics(), registry]);
      return c.body(await merged.metrics(), 200, { 'Content-Type': merged.contentType, 'Cache-Control': 'no-store' });
    },
    jobs: {
      claimed: (pool, seconds) => pickup.observe({ pool }, Math.max(0, seconds)),
      ended: (pool, status, seconds) => run.observe({ pool, status }, Math.max(0, seconds)),
    },
  };
}
