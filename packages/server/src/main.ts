import { buildApp } from './app.ts';
import { loadConfigOrExit } from './config.ts';
import { lockDataDirOrExit } from './db/data-dir-lock.ts';
import { describeKeptMail } from './mail/mailer.ts';
import { startupProblem } from './startup-problem.ts';

const config = loadConfigOrExit();
// One server per data directory: its embedded database, git repositories and edge are this process's.
const releaseDataDir = lockDataDirOrExit(config.dataDir);
const { app, close, database, mailer } = await buildApp(config, {
  logger: { level: process.env.LOG_LEVEL || 'info' },
  // Without SMTP, someone who opened the console from another machine cannot read /dev/mail, so the
  // links of each message are printed here too.
  onOutboxMail: (mail) => console.log(describeKeptMail(mail)),
}).catch((error: unknown) => {
  // The machine's problems (database, data directory) in one line; a bug keeps its trace.
  const problem = startupProblem(error, config);
  if (!problem) throw error;
  console.error(problem);
  releaseDataDir();
  process.exit(1);
});

let closing = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (closing) return;
    closing = true;
    close()
      .finally(releaseDataDir)
      .then(
        () => process.exit(0),
        () => process.exit(1),
      );
  });
}

await app.listen({ port: config.port, host: config.host });
const where = database.kind === 'postgres' ? 'PostgreSQL (DATABASE_URL)' : `PGlite in ${config.dataDir}`;
console.log(`\nBerth is running at ${config.publicUrl}  (database: ${where})`);
if (!config.publicUrlSet) {
  console.log(
    'PUBLIC_URL is not set: the console works from any address this machine answers at, but links in mail point at localhost until it is.',
  );
}
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
