import { ConfigError, loadConfig } from './config';
import { createPlatform } from './platform';
import { honoHandler, listen, withViteDevServer } from './server';

// Entry point: `node --conditions=source --import tsx reference-app/server/main.ts [--dev]`.
// Environment: PORT, HOST, DATA_DIR, DATABASE_URL, SMTP_URL, PUBLIC_URL, CORS_ORIGINS and the
// rest documented in reference-app/server/README.md.

async function main() {
  const dev = process.argv.includes('--dev');
  const config = loadConfig(process.env);
  const http = await listen(config.port, config.host);
  const platform = await createPlatform({ config, serveApp: !dev });
  let closeVite = async () => {};
  if (dev) {
    const vite = await withViteDevServer(honoHandler(platform.app), http.server);
    http.use(vite.handler);
    closeVite = vite.close;
  } else {
    http.use(honoHandler(platform.app));
  }
  const where = config.databaseUrl ? 'PostgreSQL (DATABASE_URL)' : `PGlite in ${config.dataDir}`;
  console.log(`${config.brandName} is running at ${config.publicUrl}`);
  console.log(
    `  data: ${where}; mail: ${config.smtpUrl ? 'SMTP' : `dev mailbox at ${config.publicUrl}/dev/mailbox`}${dev ? '; app: Vite dev server' : ''}`,
  );

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`${signal}: shutting down`);
    await http.close();
    await closeVite();
    await platform.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError) console.error(`Configuration error: ${error.message}`);
  else if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE')
    console.error(`Port in use: ${(error as Error).message}. Set PORT to a free port.`);
  else console.error(error);
  process.exit(1);
});
