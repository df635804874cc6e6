import { buildApp } from './app.ts';
import { loadConfigOrExit } from './config.ts';
import { describeKeptMail } from './mail/mailer.ts';

const config = loadConfigOrExit();
const { app, close, database, mailer } = await buildApp(config, {
  logger: { level: process.env.LOG_LEVEL || 'info' },
  // Without SMTP, someone who opened the console from another machine cannot read /dev/mail, so the
  // links of each message are printed here too.
  onOutboxMail: (mail) => console.log(describeKeptMail(mail)),
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
if (mailer.transport === 'outbox') {
  console.log('No SMTP_URL: mail is kept in the outbox, and each message and its links are printed here.');
  if (config.mailbox) {
    console.log(
      `On this machine, read it at ${config.publicUrl}/dev/mail; from elsewhere, read this output.`,
    );
  } else {
    console.log('The /dev/mail page is off (PUBLIC_URL is not on this machine): read this output.');
  }
}
