import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ConfigError, jwtSecretWarning, loadConfig } from './config.ts';
import { listenProblem, startupProblem } from './startup-problem.ts';
import { exitOf, freePort, spawnServer } from './testing/server-process.ts';
import { testApp } from './testing/test-app.ts';

// Issue 19: one schema reads every variable; a mistake stops the start with one line naming it.

describe('configuration checked at start', () => {
  it.each([
    [{ PORT: 'abc' }, 'PORT must be a port from 1 to 65535, got "abc"'],
    [{ PORT: '4014x' }, 'PORT must be a port from 1 to 65535, got "4014x"'],
    [
      { BERTH_LOGIN_LIMIT_PER_ACCOUNT: '0' },
      'BERTH_LOGIN_LIMIT_PER_ACCOUNT must be a whole number of at least 1, got "0"',
    ],
    [
      { BERTH_LOGIN_LIMIT_PER_ADDRESS: '-5' },
      'BERTH_LOGIN_LIMIT_PER_ADDRESS must be a whole number of at least 1, got "-5"',
    ],
    [
      { BERTH_DRAIN_INTERVAL_SECONDS: '0' },
      'BERTH_DRAIN_INTERVAL_SECONDS must be a whole number of at least 1, got "0"',
    ],
    [
      { BERTH_WORKER: 'disabled' },
      'BERTH_WORKER must be on or off (also 1/0, true/false, yes/no), got "disabled"',
    ],
    [
      { BERTH_CHECK_RESPONSES: 'sometimes' },
      'BERTH_CHECK_RESPONSES must be on or off (also 1/0, true/false, yes/no), got "sometimes"',
    ],
    [{ BERTH_HOME: 'beta' }, 'BERTH_HOME must be on or off (also 1/0, true/false, yes/no), got "beta"'],
    [
      { PUBLIC_URL: 'berth.example.com' },
      'PUBLIC_URL must be the http:// or https:// address people open Berth at (for example https://berth.example.com), got "berth.example.com"',
    ],
    [
      { SMTP_URL: 'not-a-url' },
      'SMTP_URL must be a smtp:// or smtps:// URL (for example smtps://user:secret@smtp.example.com:465); it is not a URL',
    ],
    [
      { DATABASE_URL: 'mysql://root:hunter2@db/berth' },
      'DATABASE_URL must be a postgres:// or postgresql:// URL (for example postgres://berth:secret@localhost:5432/berth), got one starting "mysql://"',
    ],
    [
      { BERTH_WORKER: 'off' },
      'BERTH_WORKER=off needs DATABASE_URL: with the embedded database no other process can reach the queue, so every operation would wait forever',
    ],
  ])('refuses %o', (env, message) => {
    expect(() => loadConfig(env)).toThrow(new ConfigError(message));
  });

  // Issue 35: these were taken silently, or failed later with a trace.
  it.each([
    [{ HOST: '999.1.1.1' }, /^HOST must be an IP address of this machine .*, got "999\.1\.1\.1"$/],
    [{ HOST: 'not a host' }, /^HOST must be/],
    [
      { LOG_LEVEL: 'loud' },
      'LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent, got "loud"',
    ],
    [
      { MAIL_FROM: 'not an email' },
      'MAIL_FROM must be an email address or a name and an address (Berth <no-reply@example.com>), got "not an email"',
    ],
    [{ MAIL_FROM: 'Berth <not an email>' }, /^MAIL_FROM must be/],
    [{ MAIL_FROM: `${'a'.repeat(400)}@example.com` }, /^MAIL_FROM must be/],
    [
      { BERTH_JWT_SECRET: 'x' },
      'BERTH_JWT_SECRET must be from 16 to 4096 bytes (32 or more advised; it signs every access token; make one with: openssl rand -base64 48), got 1 byte(s)',
    ],
    [
      { BERTH_CORS_ORIGINS: 'https://console.example.com,notaurl' },
      'BERTH_CORS_ORIGINS must be http:// or https:// origins (scheme, host and port, no path) separated by commas, for example https://console.example.com; "notaurl" is not one',
    ],
    [
      { BERTH_CORS_ORIGINS: 'https://console.example.com/app' },
      /"https:\/\/console\.example\.com\/app" is not one$/,
    ],
    [{ BERTH_CORS_ORIGINS: 'ftp://console.example.com' }, /"ftp:\/\/console\.example\.com" is not one$/],
    [
      { BERTH_WORKER_CONCURRENCY: '0' },
      'BERTH_WORKER_CONCURRENCY must be a whole number of at least 1, got "0"',
    ],
    [
      { BERTH_DOCS_URL: 'notaurl' },
      'BERTH_DOCS_URL must be an http:// or https:// address (for example https://docs.example.com), got "notaurl"',
    ],
    [
      { BERTH_SUPPORT_EMAIL: 'help@example.com, not an address' },
      'BERTH_SUPPORT_EMAIL must be email addresses separated by commas (support@example.com), got "help@example.com, not an address"',
    ],
    [{ BERTH_SUPPORT_EMAIL: 'help@example.com,' }, /^BERTH_SUPPORT_EMAIL must be/],
    [
      { BERTH_STATUS_PAGE_URL: 'javascript:alert(1)' },
      'BERTH_STATUS_PAGE_URL must be an http:// or https:// address (for example https://status.example.com), got "javascript:alert(1)"',
    ],
    [
      { BERTH_RUNTIME: 'docker', DOCKER_HOST: 'ftp://x' },
      'DOCKER_HOST must be unix:///path/to/docker.sock, tcp://host:port or ssh://user@host, got "ftp://x"',
    ],
    [{ BERTH_RUNTIME: 'docker', DOCKER_HOST: 'unix://' }, /^DOCKER_HOST must be/],
    [
      { BERTH_DRAIN_CA_FILE: fileURLToPath(import.meta.url) },
      /^BERTH_DRAIN_CA_FILE must be a PEM file of certificates/,
    ],
  ])('refuses %o in one line naming it', (env, message) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(message);
  });

  it('keeps a BERTH_JWT_SECRET of 16 to 31 bytes an installation already runs on, with a warning', () => {
    const short = loadConfig({ BERTH_JWT_SECRET: 'k'.repeat(24) });
    expect(short.jwtSecret).toBe('k'.repeat(24));
    expect(jwtSecretWarning(short)).toMatch(/^BERTH_JWT_SECRET has 24 bytes; 32 or more are advised\./);
    expect(jwtSecretWarning(loadConfig({ BERTH_JWT_SECRET: 'k'.repeat(32) }))).toBeNull();
    expect(jwtSecretWarning(loadConfig({}))).toBeNull();
    expect(() => loadConfig({ BERTH_JWT_SECRET: 'k'.repeat(15) })).toThrow(/got 15 byte\(s\)$/);
  });

  it("takes the new checks' right values as they are written", () => {
    const config = loadConfig({
      HOST: 'berth.internal',
      LOG_LEVEL: 'Debug',
      MAIL_FROM: '"Berth Ops" <ops@example.com>',
      BERTH_JWT_SECRET: 'k'.repeat(32),
      BERTH_CORS_ORIGINS: ' https://Console.Example.com/ , http://localhost:5173',
      BERTH_WORKER_CONCURRENCY: '4',
      BERTH_DOCS_URL: 'https://docs.example.com/berth',
      // Read by the docker runtime only: a value of another tool's on a sim server stops nothing.
      DOCKER_HOST: 'npipe:////./pipe/docker_engine',
    });
    expect(config).toMatchObject({
      host: 'berth.internal',
      logLevel: 'debug',
      mailFrom: '"Berth Ops" <ops@example.com>',
      corsOrigins: ['https://console.example.com', 'http://localhost:5173'],
      workerConcurrency: 4,
      docsUrl: 'https://docs.example.com/berth',
    });
    // Support tickets go to the superusers unless told otherwise; their files stay in the data directory.
    expect(loadConfig({ BERTH_DATA_DIR: '/srv/berth' }).support).toEqual({
      emails: null,
      dir: '/srv/berth/support',
    });
    expect(
      loadConfig({ BERTH_SUPPORT_EMAIL: ' help@example.com , oncall@example.com' }).support.emails,
    ).toEqual(['help@example.com', 'oncall@example.com']);
    expect(loadConfig({ MAIL_FROM: 'ops@example.com', HOST: '::1' })).toMatchObject({
      mailFrom: 'ops@example.com',
      host: '::1',
    });
    expect(loadConfig({ BERTH_RUNTIME: 'docker', DOCKER_HOST: 'tcp://10.0.0.5:2375' }).dockerHost).toBe(
      'tcp://10.0.0.5:2375',
    );
  });

  it('has the home dashboard on unless BERTH_HOME turns it off (issue 38)', () => {
    expect(loadConfig({}).home).toBe(true);
    expect(loadConfig({ BERTH_HOME: 'off' }).home).toBe(false);
    expect(loadConfig({ BERTH_HOME: 'On' }).home).toBe(true);
  });

  it('never repeats a secret URL it refuses', () => {
    expect(() => loadConfig({ DATABASE_URL: 'mysql://root:hunter2@db/berth' })).not.toThrow(/hunter2/);
  });

  it('takes what is right', () => {
    const config = loadConfig({
      PORT: '4014',
      PUBLIC_URL: 'https://berth.example.com/',
      SMTP_URL: 'smtps://user:secret@smtp.example.com:465',
      DATABASE_URL: 'postgres:///berth?host=/var/run/postgresql',
      BERTH_WORKER: 'no',
      BERTH_DRAIN_ALLOW_PRIVATE: 'YES',
    });
    expect(config).toMatchObject({
      port: 4014,
      publicUrl: 'https://berth.example.com',
      worker: false,
      drainAllow: { everything: true, hosts: [], ranges: [] },
    });
  });

  it("reads the drains' allow-list: names, addresses and ranges; nothing by default", () => {
    expect(loadConfig({}).drainAllow).toEqual({ everything: false, hosts: [], ranges: [] });
    expect(
      loadConfig({ BERTH_DRAIN_ALLOW: ' Logs.Internal. , 10.0.8.0/24,127.0.0.1,,fd00::/8 ' }).drainAllow,
    ).toEqual({
      everything: false,
      hosts: ['logs.internal'],
      ranges: ['10.0.8.0/24', '127.0.0.1', 'fd00::/8'],
    });
  });

  it.each([
    ['logs.internal:514', 'logs.internal:514'],
    ['10.0.0.0/33', '10.0.0.0/33'],
    ['*', '*'],
    ['https://logs.internal', 'https://logs.internal'],
    ['a..b', 'a..b'],
    [`${'a'.repeat(64)}.internal`, `${'a'.repeat(64)}.internal`],
  ])('refuses BERTH_DRAIN_ALLOW entry %s', (value, entry) => {
    expect(() => loadConfig({ BERTH_DRAIN_ALLOW: value })).toThrow(
      new ConfigError(
        `BERTH_DRAIN_ALLOW must be host names, addresses and CIDR ranges separated by commas (for example logs.internal,10.0.8.0/24; no ports); "${entry}" is none of these`,
      ),
    );
  });

  it('refuses a BERTH_DRAIN_ALLOW longer than 4000 characters before reading it', () => {
    expect(() => loadConfig({ BERTH_DRAIN_ALLOW: 'a,'.repeat(2001) })).toThrow(
      new ConfigError('BERTH_DRAIN_ALLOW must be at most 4000 characters, got 4002'),
    );
  });

  it('says in one line why the machine stopped a start', () => {
    const config = { dataDir: '/srv/berth', databaseUrl: 'postgres://berth:secret@db.internal:6543/berth' };
    expect(startupProblem(Object.assign(new Error('x'), { code: 'ECONNREFUSED' }), config)).toBe(
      'Berth cannot use its database at db.internal:6543/berth (DATABASE_URL): nothing answers there.',
    );
    expect(startupProblem({ cause: { code: '28P01' } }, config)).toBe(
      'Berth cannot use its database at db.internal:6543/berth (DATABASE_URL): the password is wrong.',
    );
    expect(
      startupProblem(Object.assign(new Error('x'), { code: 'EACCES', path: '/srv/berth/pg' }), config),
    ).toBe(
      'Berth cannot write /srv/berth/pg: permission denied. Set BERTH_DATA_DIR to a directory it can write.',
    );
    expect(startupProblem(new TypeError('a bug'), config)).toBeNull();
  });

  it('says in one line why the listen failed on the machine', () => {
    const config = { host: '192.0.2.1', port: 4000 };
    expect(listenProblem(Object.assign(new Error('x'), { code: 'EADDRNOTAVAIL' }), config)).toBe(
      'Berth cannot listen on 192.0.2.1:4000: HOST 192.0.2.1 is not an address of this machine. Set HOST to one of its addresses, or 0.0.0.0 for all.',
    );
    expect(
      listenProblem(Object.assign(new Error('x'), { code: 'EACCES' }), { host: '0.0.0.0', port: 80 }),
    ).toBe(
      'Berth cannot listen on 0.0.0.0:80: port 80 needs privileges this user lacks. Set PORT to 1024 or above.',
    );
    expect(listenProblem(new TypeError('a bug'), config)).toBeNull();
  });

  it('stops a server whose database does not answer with that one line, exit 1', async () => {
    const server = spawnServer({
      DATABASE_URL: 'postgres://berth:secret@127.0.0.1:1/berth',
      BERTH_DATA_DIR: mkdtempSync(path.join(tmpdir(), 'berth-no-db-')),
      PORT: String(await freePort()),
      LOG_LEVEL: 'info',
    });
    const code = await exitOf(server.child);
    const output = server.output();
    expect(code).toBe(1);
    expect(output.trim()).toBe(
      'Berth cannot use its database at 127.0.0.1:1/berth (DATABASE_URL): nothing answers there.',
    );
  }, 30_000);
});

describe('PUBLIC_URL unset', () => {
  it("answers the console and the links it follows at the origin it was opened at; set, at PUBLIC_URL's", async () => {
    const t = await testApp({ publicUrlSet: false });
    try {
      const config = await t.app.inject({
        method: 'GET',
        url: '/config.json',
        headers: { host: '192.0.2.10:4000' },
      });
      expect(config.json()).toMatchObject({
        appUrl: 'http://192.0.2.10:4000',
        apiUrl: 'http://192.0.2.10:4000/api',
        authUrl: 'http://192.0.2.10:4000/auth',
      });
    } finally {
      await t.close();
    }
    const set = await testApp();
    try {
      const config = await set.app.inject({
        method: 'GET',
        url: '/config.json',
        headers: { host: '192.0.2.10:4000' },
      });
      expect(config.json().apiUrl).toBe('http://berth.test/api');
    } finally {
      await set.close();
    }
  });
});

describe('BERTH_DEFAULT_PLAN', () => {
  it('starts new organizations on starter unless the operator names another plan', () => {
    expect(loadConfig({}).defaultPlan).toBe('starter');
    expect(loadConfig({ BERTH_DEFAULT_PLAN: ' Growth ' }).defaultPlan).toBe('growth');
    expect(() => loadConfig({ BERTH_DEFAULT_PLAN: 'gold' })).toThrow(
      'BERTH_DEFAULT_PLAN must be one of none, starter, development, growth, scale, production, enterprise, got "gold"',
    );
    expect(() => loadConfig({ BERTH_DEFAULT_PLAN: 'x'.repeat(5000) })).toThrow(
      /^BERTH_DEFAULT_PLAN must be one of/,
    );
  });
});

describe('BERTH_PAYMENTS and its Stripe keys', () => {
  const stripeKeys = {
    BERTH_PAYMENTS: 'stripe',
    STRIPE_SECRET_KEY: 'sk_test_51Berth',
    STRIPE_PUBLISHABLE_KEY: 'pk_test_51Berth',
    STRIPE_WEBHOOK_SECRET: 'whsec_berth',
  };

  it('charges nobody by default, with a 14-day trial once payments are on', () => {
    expect(loadConfig({}).payments).toEqual({ mode: 'none', trialDays: 14, stripe: null });
    expect(loadConfig({ BERTH_PAYMENTS: 'Local', BERTH_TRIAL_DAYS: '0' }).payments).toEqual({
      mode: 'local',
      trialDays: 0,
      stripe: null,
    });
    expect(loadConfig(stripeKeys).payments).toEqual({
      mode: 'stripe',
      trialDays: 14,
      stripe: {
        secretKey: 'sk_test_51Berth',
        publishableKey: 'pk_test_51Berth',
        webhookSecret: 'whsec_berth',
        apiUrl: 'https://api.stripe.com',
      },
    });
    expect(
      loadConfig({ ...stripeKeys, BERTH_STRIPE_API_URL: 'http://127.0.0.1:12111' }).payments.stripe?.apiUrl,
    ).toBe('http://127.0.0.1:12111');
  });

  it.each([
    [{ BERTH_PAYMENTS: 'paypal' }, 'BERTH_PAYMENTS must be none, local or stripe, got "paypal"'],
    [{ BERTH_TRIAL_DAYS: '3651' }, 'BERTH_TRIAL_DAYS must be at most 3650, got "3651"'],
    [
      { ...stripeKeys, STRIPE_SECRET_KEY: '' },
      "STRIPE_SECRET_KEY must be set with BERTH_PAYMENTS=stripe, to a key starting sk_live_ or sk_test_ or rk_live_ or rk_test_ (from Stripe's dashboard)",
    ],
    [
      { ...stripeKeys, STRIPE_PUBLISHABLE_KEY: 'sk_test_51Berth' },
      "STRIPE_PUBLISHABLE_KEY must be set with BERTH_PAYMENTS=stripe, to a key starting pk_live_ or pk_test_ (from Stripe's dashboard)",
    ],
    [
      { ...stripeKeys, STRIPE_WEBHOOK_SECRET: 'whsec_berth; rm -rf' },
      "STRIPE_WEBHOOK_SECRET must be set with BERTH_PAYMENTS=stripe, to a key starting whsec_ (from Stripe's dashboard)",
    ],
  ])('refuses %o', (env, message) => {
    expect(() => loadConfig(env)).toThrow(new ConfigError(message));
  });

  it.each([
    [
      'http://stripe-proxy.internal:8080',
      'BERTH_STRIPE_API_URL must be an https:// address (http:// only to this machine: every call carries STRIPE_SECRET_KEY), got "http://stripe-proxy.internal:8080"',
    ],
    [
      'https://proxy.example.com/stripe',
      'BERTH_STRIPE_API_URL must be an address with no path, query or credentials, such as https://proxy.example.com',
    ],
    [
      'https://user:hunter2@proxy.example.com',
      'BERTH_STRIPE_API_URL must be an address with no path, query or credentials, such as https://proxy.example.com',
    ],
  ])(
    'keeps the secret key off the wire in clear and off ignored parts of the address: refuses %s',
    (url, message) => {
      expect(() => loadConfig({ ...stripeKeys, BERTH_STRIPE_API_URL: url })).toThrow(
        new ConfigError(message),
      );
    },
  );

  it('never prints a Stripe key it refuses', () => {
    const secret = `sk_test_${'x'.repeat(600)}`;
    expect(() => loadConfig({ ...stripeKeys, STRIPE_SECRET_KEY: secret })).toThrow(/^(?!.*xxxx)/s);
  });
});
