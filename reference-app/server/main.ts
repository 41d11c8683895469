import cluster from 'node:cluster';
import { loadConfig, type ServerConfig } from './config';
import { ConfigError } from './config/env';
import { configureLogger, log } from './log';
import { createPlatform } from './platform';
import type { ApiKeys } from './auth/apiKeys';
import { honoHandler, listen, withViteDevServer } from './server';
import { runPrimary, workersRefusal, WorkersError } from './workers';

// Entry point. Production: `node dist/server/main.mjs` (npm start builds it); development:
// `node --conditions=source --import tsx reference-app/server/main.ts [--dev]`.
// Environment: PORT, HOST, WORKERS, DATA_DIR, DATABASE_URL, SMTP_URL, PUBLIC_URL, CORS_ORIGINS
// and the rest documented in reference-app/server/README.md and docs/deploy.md.

async function main() {
  const dev = process.argv.includes('--dev');
  const config = loadConfig();
  configureLogger({ format: config.logFormat, level: config.logLevel });
  const { workers } = config;
  const refusal = workersRefusal(workers, config, dev);
  if (refusal) throw new WorkersError(refusal);

  if (workers > 1 && cluster.isPrimary) {
    // Migrations, seed data, signing and publishable keys once, before any worker races for them.
    const primary = await createPlatform({ config, serveApp: false });
    await primary.close();
    runPrimary(workers, () => announce(config, dev, workers, primary.apiKeys));
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
    if (!cluster.isWorker) log.info(`${signal}: shutting down after the requests in flight`);
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
  if (!cluster.isWorker) announce(config, dev, 1, platform.apiKeys);
}

function announce(config: ServerConfig, dev: boolean, workers: number, keys: ApiKeys) {
  const where = config.databaseUrl ? 'PostgreSQL (DATABASE_URL)' : `PGlite in ${config.dataDir}`;
  log.info(`${config.brandName} is running at ${config.publicUrl}`);
  log.info(
    `  data: ${where}; mail: ${config.smtpUrl ? 'SMTP' : `dev mailbox at ${config.publicUrl}/dev/mailbox`}${dev ? '; app: Vite dev server' : ''}${workers > 1 ? `; ${workers} worker processes` : ''}`,
  );
  // Where a developer finds the keys supabase-js needs. The publishable key is public; the
  // service-role key opens every account, so no log line ever holds it (docs/security.md).
  if (!config.production)
    log.info(
      `  auth keys: publishable (anon) ${keys.publishable}${keys.from.anon === 'environment' ? ' (ANON_KEY)' : ''}; service-role: ${keys.from.serviceRole === 'environment' ? 'from SERVICE_ROLE_KEY' : '`npm run keys` prints it'}`,
    );
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError || error instanceof WorkersError) log.fatal(`Configuration error: ${error.message}`);
  else if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE')
    log.fatal(`Port in use: ${(error as Error).message}. Set PORT to a free port.`);
  else log.fatal({ err: error }, 'the server could not start');
  process.exit(1);
});
