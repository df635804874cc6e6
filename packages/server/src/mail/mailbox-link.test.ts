import fs from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  exitOf,
  freePort,
  type ServerProcess,
  spawnServer,
  untilRunning,
} from '../testing/server-process.ts';
import { MAILBOX_LINK_FILE, mailboxLink, mailStartLines } from './mailbox-link.ts';

// Issue 34 §5: the mailbox opens only with this start's secret, printed in the start banner's link (and
// kept in the data directory while the server runs); a server whose mail goes nowhere says so at start
// and prints no links.

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

async function start(env: Record<string, string>) {
  const dataDir = fs.mkdtempSync(path.join(tmpdir(), 'berth-mailbox-'));
  dirs.push(dataDir);
  const port = await freePort();
  const server = await untilRunning(
    spawnServer({ BERTH_DATA_DIR: dataDir, PORT: String(port), SMTP_URL: '', BERTH_MAILBOX: '', ...env }),
  );
  return { server, port, dataDir };
}

async function stop(server: ServerProcess) {
  server.child.kill('SIGTERM');
  expect(await exitOf(server.child)).toBe(0);
}

const signUp = (port: number, email: string) =>
  fetch(`http://127.0.0.1:${port}/auth/users`, {
    method: 'POST',
    headers: { 'content-type': 'application/hal+json' },
    body: JSON.stringify({ name: 'Banner Reader', email, password: 'Correct-Horse9', challengeToken: '' }),
  });

/** Waits for the server to print `text` (a kept message is printed after its request is answered). */
async function untilPrinted(server: ServerProcess, text: string) {
  const deadline = Date.now() + 10_000;
  while (!server.output().includes(text) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('the start banner and the mailbox link', () => {
  it('on this machine: prints the link with a new secret, which opens the mailbox in that browser only', async () => {
    const { server, port, dataDir } = await start({ HOST: '127.0.0.1' });
    try {
      await untilPrinted(server, 'Read the outbox');
      const printed =
        /Read the outbox on this machine at (http:\/\/localhost:\d+\/dev\/mail\?token=([\w-]{43}))\n/.exec(
          server.output(),
        );
      expect(printed, server.output()).not.toBeNull();
      const [, link = '', secret = ''] = printed ?? [];
      expect(link).toBe(`http://localhost:${port}/dev/mail?token=${secret}`);
      const file = path.join(dataDir, MAILBOX_LINK_FILE);
      expect(fs.readFileSync(file, 'utf8')).toBe(`${link}\n`);
      expect(fs.statSync(file).mode & 0o777).toBe(0o600);

      const local = `http://127.0.0.1:${port}`;
      expect((await fetch(`${local}/dev/mail`)).status).toBe(404);
      const opened = await fetch(`${local}/dev/mail?token=${secret}`, { redirect: 'manual' });
      expect(opened.status).toBe(303);
      expect(opened.headers.get('location')).toBe('/dev/mail');
      const cookie = opened.headers.get('set-cookie') ?? '';
      expect(cookie).toMatch(new RegExp(`^berth_mailbox=${secret}; Path=/dev; HttpOnly; SameSite=Strict$`));
      const page = await fetch(`${local}/dev/mail`, { headers: { cookie: cookie.split(';')[0] ?? '' } });
      expect(page.status).toBe(200);
      expect(await page.text()).toContain('Berth mailbox');

      // The mail kept meanwhile is printed too, for whoever reads this output elsewhere.
      expect((await signUp(port, 'banner-local@example.com')).status).toBe(201);
      await untilPrinted(server, 'Mail to banner-local@example.com');
      expect(server.output()).toMatch(
        /Mail to banner-local@example.com: Verify your email for Berth\n {4}http:\/\/localhost:\d+\/verify\//,
      );
    } finally {
      await stop(server);
    }
    // The link dies with the process, and its file goes with it.
    expect(fs.existsSync(path.join(dataDir, MAILBOX_LINK_FILE))).toBe(false);
  }, 120_000);

  it('on a public PUBLIC_URL without SMTP_URL: says mail is not being sent, and prints no link', async () => {
    const { server, port, dataDir } = await start({ PUBLIC_URL: 'https://berth.example.com' });
    try {
      await untilPrinted(server, 'Mail is not being sent');
      expect(server.output()).toContain(
        'Mail is not being sent: SMTP_URL is not set and PUBLIC_URL (https://berth.example.com) is not this machine, so the local mailbox is off. Verification, password reset and invitation mails reach nobody; set SMTP_URL to send them.',
      );
      expect(server.output()).not.toContain('/dev/mail');
      expect(fs.existsSync(path.join(dataDir, MAILBOX_LINK_FILE))).toBe(false);
      expect((await signUp(port, 'banner-public@example.com')).status).toBe(201);
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(server.output()).not.toContain('banner-public@example.com');
      expect(server.output()).not.toContain('/verify/');
    } finally {
      await stop(server);
    }
  }, 120_000);
});

describe('what the banner says about mail', () => {
  const config = { publicUrl: 'http://localhost:4000', port: 4000, dataDir: '/srv/berth' };

  it('names this machine in the link even when PUBLIC_URL is public (BERTH_MAILBOX=on)', () => {
    expect(mailboxLink(config, 'abc')).toBe('http://localhost:4000/dev/mail?token=abc');
    expect(mailboxLink({ publicUrl: 'http://127.0.0.1:8000', port: 8000 }, 'abc')).toBe(
      'http://127.0.0.1:8000/dev/mail?token=abc',
    );
    expect(mailboxLink({ publicUrl: 'https://berth.example.com', port: 4000 }, 'abc')).toBe(
      'http://localhost:4000/dev/mail?token=abc',
    );
  });

  it('says nothing with SMTP, where to read the outbox with a mailbox, and that mail goes nowhere without', () => {
    expect(mailStartLines(config, 'smtp', null)).toEqual({ info: [], warnings: [] });
    const on = mailStartLines(config, 'outbox', 'http://localhost:4000/dev/mail?token=abc');
    expect(on.warnings).toEqual([]);
    expect(on.info.join('\n')).toContain(
      'Read the outbox on this machine at http://localhost:4000/dev/mail?token=abc',
    );
    expect(on.info.join('\n')).toContain(path.join('/srv/berth', MAILBOX_LINK_FILE));
    expect(mailStartLines(config, 'outbox', null)).toEqual({
      info: [],
      warnings: [
        'Mail is not being sent: SMTP_URL is not set and BERTH_MAILBOX is off. Verification, password reset and invitation mails reach nobody; set SMTP_URL to send them.',
      ],
    });
  });
});
