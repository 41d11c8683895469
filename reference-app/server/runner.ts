import { loadConfig } from './config';
import { ConfigError } from './config/env';
import { configureLogger, log } from './log';
import { createPlatform } from './platform';

// The runner agent (docs/deploy.md, "Several runners"): a platform process that serves no site.
// With DATABASE_URL (the fleet's PostgreSQL) and DOCKER_HOST (this host's engine) it takes the
// leases of container deployments nobody holds, runs their containers, and its worker claims the
// jobs of the deployments it holds (and other jobs, like any server process). Production:
// `node dist/server/runner.mjs`; development: `npm run runner`.

async function main() {
  // The agent exists to run containers: the runner is on unless CONTAINER_RUNNER says which.
  const env = { ...process.env, CONTAINER_RUNNER: process.env.CONTAINER_RUNNER || 'docker' };
  const config = loadConfig(env);
  configureLogger({ format: config.logFormat, level: config.logLevel });
  if (!config.databaseUrl) {
    throw ConfigError.required(
      'DATABASE_URL',
      'by the runner agent: the PostgreSQL database its fleet shares (PGlite lives in one process)',
    );
  }
  const platform = await createPlatform({ config, serveApp: false });
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info(`${signal}: the runner gives its deployments up and removes its containers`);
    await platform.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
  log.info(`runner agent: taking container deployments from PostgreSQL (DATABASE_URL) on ${config.runtimes.containers?.dockerHost}`);
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError) log.fatal(`Configuration error: ${error.message}`);
  else log.fatal({ err: error }, 'the runner could not start');
  process.exit(1);
});
