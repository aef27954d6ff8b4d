import { buildApp } from './app.ts';
import { loadConfig } from './config.ts';

/** Listen and shut down gracefully; everything else lives in app.ts. */
const config = loadConfig();
const app = await buildApp({ logger: true });

let closing = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, async () => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    await app.close();
    process.exit(0);
  });
}

await app.listen({ port: config.port, host: config.host });
app.log.info(`civitas at ${config.origin} (${app.civitas.db.embedded ? `embedded database in ${config.dataDir}` : 'PostgreSQL'})`);
