import cluster from 'node:cluster';
import { availableParallelism } from 'node:os';
import { ConfigError, loadConfig } from './config';
import { createPlatform } from './platform';
import { honoHandler, listen, withViteDevServer } from './server';
import { runPrimary, workerCount, workersRefusal, WorkersError } from './workers';

// Entry point. Production: `node dist/server/main.mjs` (npm start builds it); development:
// `node --conditions=source --import tsx reference-app/server/main.ts [--dev]`.
// Environment: PORT, HOST, WORKERS, DATA_DIR, DATABASE_URL, SMTP_URL, PUBLIC_URL, CORS_ORIGINS
// and the rest documented in reference-app/server/README.md and docs/deploy.md.

async function main() {
  const dev = process.argv.includes('--dev');
  const config = loadConfig(process.env);
  const workers = workerCount(process.env, availableParallelism());
  const refusal = workersRefusal(workers, config, dev);
  if (refusal) throw new WorkersError(refusal);

  if (workers > 1 && cluster.isPrimary) {
    // Migrations, seed data, signing and publishable keys once, before any worker races for them.
    await (await createPlatform({ config, serveApp: false })).close();
    runPrimary(workers, () => announce(config, dev, workers));
    return;
  }

  const http = await listen(config.port, config.host);
  // Graceful from the start: a SIGTERM during start-up still closes the database cleanly.
  let stopping = false;
  let closePlatform = async () => {};
  let closeVite = async () => {};
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    if (!cluster.isWorker) console.log(`${signal}: shutting down after the requests in flight`);
    await http.close();
    await closeVite();
    await closePlatform();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));

  const platform = await createPlatform({ config, serveApp: !dev });
  closePlatform = () => platform.close();
  if (stopping) return;
  if (dev) {
    const vite = await withViteDevServer(honoHandler(platform.app), http.server);
    http.use(vite.handler);
    closeVite = vite.close;
  } else {
    http.use(honoHandler(platform.app));
  }
  if (!cluster.isWorker) announce(config, dev, 1);
}

function announce(config: ReturnType<typeof loadConfig>, dev: boolean, workers: number) {
  const where = config.databaseUrl ? 'PostgreSQL (DATABASE_URL)' : `PGlite in ${config.dataDir}`;
  console.log(`${config.brandName} is running at ${config.publicUrl}`);
  console.log(
    `  data: ${where}; mail: ${config.smtpUrl ? 'SMTP' : `dev mailbox at ${config.publicUrl}/dev/mailbox`}${dev ? '; app: Vite dev server' : ''}${workers > 1 ? `; ${workers} worker processes` : ''}`,
  );
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError) console.error(`Configuration error: ${error.message}`);
  else if (error instanceof WorkersError) console.error(`Configuration error: ${error.message}`);
  else if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE')
    console.error(`Port in use: ${(error as Error).message}. Set PORT to a free port.`);
  else console.error(error);
  process.exit(1);
});
