import { jwtSecretWarning, loadConfigOrExit } from './config.ts';
import { lockDataDirOrExit } from './db/data-dir-lock.ts';
import { createFilesPrivately } from './db/private-data-dir.ts';
import { mailboxLink, mailStartLines, removeMailboxLink, writeMailboxLink } from './mail/mailbox-link.ts';
import { describeKeptMail } from './mail/mailer.ts';
import { checkMachineOrExit } from './start-checks.ts';
import { listenProblem, startupProblem } from './startup-problem.ts';

// Issue 34: what the server writes (and its git and Caddy) is its user's alone, from the lock file on.
createFilesPrivately();
const config = loadConfigOrExit();
// One server per data directory: its embedded database, git repositories and edge are this process's.
const releaseDataDir = lockDataDirOrExit(config.dataDir);
// What only the machine can say (HOST resolves, the Docker engine answers, Caddy runs), before the rest
// of the server is even loaded: a wrong value stops the start at once.
await checkMachineOrExit(config, 'server', releaseDataDir);
const { buildApp } = await import('./app.ts');
const { app, close, database, mailer, mailboxSecret } = await buildApp(config, {
  logger: { level: config.logLevel },
  // Without SMTP, someone who opened the console from another machine cannot read /dev/mail, so the
  // links of each message are printed here too (only while the mailbox is on: see composition.ts).
  onOutboxMail: (mail) => console.log(describeKeptMail(mail)),
}).catch((error: unknown) => {
  // The machine's problems (database, data directory) in one line; a bug keeps its trace.
  const problem = startupProblem(error, config);
  if (!problem) throw error;
  console.error(problem);
  releaseDataDir();
  process.exit(1);
});

// Written before the server answers, so whoever waits for it to answer finds the link there.
const link = mailboxSecret ? mailboxLink(config, mailboxSecret) : null;
if (link) writeMailboxLink(config.dataDir, link);

let closing = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (closing) return;
    closing = true;
    console.log('Stopping Berth…');
    close()
      .finally(() => {
        removeMailboxLink(config.dataDir);
        releaseDataDir();
      })
      .then(
        () => {
          console.log('Berth stopped.');
          process.exit(0);
        },
        (error: unknown) => {
          console.error(`Berth stopped, but not cleanly: ${(error as Error)?.message ?? error}`);
          process.exit(1);
        },
      );
  });
}

try {
  await app.listen({ port: config.port, host: config.host });
} catch (error) {
  const problem = listenProblem(error, config);
  if (!problem) throw error;
  console.error(problem);
  await close().catch(() => undefined);
  removeMailboxLink(config.dataDir);
  releaseDataDir();
  process.exit(1);
}
const where = database.kind === 'postgres' ? 'PostgreSQL (DATABASE_URL)' : `PGlite in ${config.dataDir}`;
console.log(`\nBerth is running at ${config.publicUrl}  (database: ${where})`);
if (!config.publicUrlSet) {
  console.log(
    'PUBLIC_URL is not set: the console works from any address this machine answers at, but links in mail point at localhost until it is.',
  );
}
const shortSecret = jwtSecretWarning(config);
if (shortSecret) console.warn(shortSecret);
const mail = mailStartLines(config, mailer.transport, link);
for (const line of mail.info) console.log(line);
for (const line of mail.warnings) console.warn(line);
