import { buildApp } from './app.ts';
import { loadConfig } from './config.ts';

const config = loadConfig();
const { app, close, database, mailer } = await buildApp(config, {
  logger: { level: process.env.LOG_LEVEL || 'info' },
});

let closing = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (closing) return;
    closing = true;
    close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  });
}

await app.listen({ port: config.port, host: config.host });
const where = database.kind === 'postgres' ? 'PostgreSQL (DATABASE_URL)' : `PGlite in ${config.dataDir}`;
console.log(`\nBerth is running at ${config.publicUrl}  (database: ${where})`);
if (mailer.transport === 'outbox')
  console.log(`Mail is kept in the outbox: read it at ${config.publicUrl}/dev/mail`);
