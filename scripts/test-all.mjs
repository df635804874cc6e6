#!/usr/bin/env node
// `npm test`: every suite, output streaming, then a per-suite summary and one last line
// `N passed, N failed` summed over all suites. Exit code 1 when anything failed or crashed.
//
//   npm test                     all suites
//   npm test -- core web         only these (a name also selects its variants: `server` runs
//                                server and server-postgres)
//
// Suites: core, server (PGlite), server-postgres (only when TEST_DATABASE_URL is set), docker (only
// when a Docker engine answers, always in CI), swarm (a local Swarm cluster: only as root with a Docker
// engine, always in CI), web, e2e.
// Counts come from the JSON reporters; a suite that crashes, times out or writes no report counts
// as at least one failure.
//
// Three phases. First two lanes side by side: server then server-postgres, and core then web (none of
// them measures time, and the server suites leave the cores idle while they wait on their databases and
// timers). Then docker then swarm, alone: their request loops count every request an edge fails, and a
// test app (busybox's httpd, a process per connection, an accept queue of nine) beside a busy server
// suite falls behind for seconds, longer than the edge's dial waits. Then e2e alone: Chromium aborts
// requests in flight when the host's interfaces change (every container start does), and it needs both
// cores. In the first phase the first lane's output streams; the second lane's is kept in
// .test-reports/<suite>.log and printed whole when that suite ends, so they never interleave.
// Environment:
//   BERTH_SUITE_TIMEOUT_MINUTES  per-suite limit (default 55: the end-to-end suite takes some 40 minutes on a CI machine)
//   BERTH_TEST_BUDGET_MINUTES    limit for the whole run; suites left when it runs out count as failed
//   BERTH_TEST_SERIAL            set to 1 to run every suite one after another, all output streaming
import { spawn } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { stripVTControlCharacters } from 'node:util';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const reports = join(root, '.test-reports');
const bin = (name) => join(root, 'node_modules', '.bin', name);
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

const vitestArgs = (suite) => [
  'run',
  '--passWithNoTests',
  '--reporter=default',
  '--reporter=json',
  `--outputFile=${join(reports, `${suite}.json`)}`,
];

/**
 * @typedef {{ passed: number, failed: number, skipped: number, note?: string, failures?: string[] }} Counts
 * @typedef {{ name: string, when?: () => string | null | Promise<string | null>, steps: Step[], cleanup?: Step[], report: (file: string) => Counts }} Suite
 * @typedef {{ label: string, cwd: string, command: string, args: string[], env?: Record<string, string | undefined> }} Step
 */

/** @type {Suite[]} */
const suites = [
  {
    name: 'core',
    steps: [{ label: 'vitest', cwd: 'packages/core', command: bin('vitest'), args: vitestArgs('core') }],
    report: vitestCounts,
  },
  {
    name: 'server',
    steps: [
      {
        label: 'vitest (PGlite)',
        cwd: 'packages/server',
        command: bin('vitest'),
        args: vitestArgs('server'),
        // PGlite for sure, even when the shell has a PostgreSQL URL for the next suite.
        env: { BERTH_TEST_DB: 'pglite', TEST_DATABASE_URL: undefined },
      },
    ],
    report: vitestCounts,
  },
  {
    name: 'server-postgres',
    when: () => (process.env.TEST_DATABASE_URL ? null : 'TEST_DATABASE_URL is not set'),
    steps: [
      {
        label: 'vitest (PostgreSQL)',
        cwd: 'packages/server',
        command: bin('vitest'),
        args: vitestArgs('server-postgres'),
        env: { BERTH_TEST_DB: 'postgres' },
      },
    ],
    report: vitestCounts,
  },
  {
    // The docker runtime against a real engine; CI installs and starts one (.ci/run), so there it never skips.
    name: 'docker',
    when: async () =>
      process.env.CI || (await dockerEngineAnswers())
        ? null
        : 'no Docker engine answers at DOCKER_HOST or /var/run/docker.sock',
    steps: [
      {
        label: 'vitest (docker)',
        cwd: 'packages/server',
        command: bin('vitest'),
        args: [...vitestArgs('docker'), '--config', 'vitest.docker.config.ts'],
        env: { BERTH_TEST_DB: 'pglite', TEST_DATABASE_URL: undefined },
      },
    ],
    report: vitestCounts,
  },
  {
    // The swarm runtime on a real 3-node Swarm made on this machine (scripts/swarm-local.mjs: network
    // namespaces, daemons, an iptables rule), so root is needed; CI runs as root and installs what it needs.
    name: 'swarm',
    when: async () => {
      if (process.env.CI) return null;
      if (process.getuid?.() !== 0) return 'not root (the local Swarm cluster makes network namespaces)';
      return (await dockerEngineAnswers())
        ? null
        : 'no Docker engine answers at DOCKER_HOST or /var/run/docker.sock';
    },
    steps: [
      {
        label: 'vitest (swarm)',
        cwd: 'packages/server',
        command: bin('vitest'),
        args: [...vitestArgs('swarm'), '--config', 'vitest.swarm.config.ts'],
        env: { BERTH_TEST_DB: 'pglite', TEST_DATABASE_URL: undefined },
      },
    ],
    // The suite takes its clusters down itself; after a crash or a timeout these do: the suite's
    // (SUITE_NET), the second one that runs a registered stack (SECOND_NET), in
    // packages/server/src/testing/swarm-cluster.ts, and the TLS one.
    cleanup: [
      {
        label: 'swarm-local down',
        cwd: '.',
        command: process.execPath,
        args: [join('scripts', 'swarm-local.mjs'), 'down'],
        env: { BERTH_SWARM_LOCAL_NET: process.env.BERTH_SWARM_LOCAL_NET ?? '87' },
      },
      {
        label: 'swarm-local down (second cluster)',
        cwd: '.',
        command: process.execPath,
        args: [join('scripts', 'swarm-local.mjs'), 'down'],
        env: { BERTH_SWARM_LOCAL_NET: '88' },
      },
      {
        // swarm-tls.swarm.test.ts's cluster (TLS_NET), in its own directory.
        label: 'swarm-local down (TLS cluster)',
        cwd: '.',
        command: process.execPath,
        args: [join('scripts', 'swarm-local.mjs'), 'down'],
        env: { BERTH_SWARM_LOCAL_NET: '91' },
      },
    ],
    report: vitestCounts,
  },
  {
    name: 'web',
    steps: [{ label: 'vitest', cwd: 'packages/web', command: bin('vitest'), args: vitestArgs('web') }],
    report: vitestCounts,
  },
  {
    name: 'e2e',
    steps: [
      { label: 'build the console', cwd: '.', command: npm, args: ['run', 'build', '-w', '@berth/web'] },
      // The JSON reporter writes .test-reports/e2e.json (e2e/playwright.config.ts).
      { label: 'playwright', cwd: 'e2e', command: bin('playwright'), args: ['test'] },
    ],
    report: playwrightCounts,
  },
];

/** True when a Docker engine answers its ping (at DOCKER_HOST, else the local socket) within 2 s. */
function dockerEngineAnswers() {
  const host = process.env.DOCKER_HOST ?? '';
  const target = host.startsWith('tcp://')
    ? {
        host: new URL(host.replace('tcp://', 'http://')).hostname,
        port: Number(new URL(host.replace('tcp://', 'http://')).port) || 2375,
      }
    : { socketPath: host.startsWith('unix://') ? host.slice('unix://'.length) : '/var/run/docker.sock' };
  return new Promise((resolve) => {
    const request = httpRequest({ ...target, path: '/_ping', timeout: 2000 }, (response) => {
      response.resume();
      resolve(response.statusCode === 200);
    });
    request.on('timeout', () => request.destroy());
    request.on('error', () => resolve(false));
    request.end();
  });
}

/** vitest --reporter=json: tests, plus every test file that failed to load or run. */
function vitestCounts(file) {
  const json = JSON.parse(readFileSync(file, 'utf8'));
  let brokenFiles = 0;
  const failures = [];
  for (const result of json.testResults ?? []) {
    const file = relativeName(result.name);
    const failedTests = (result.assertionResults ?? []).filter((a) => a.status === 'failed');
    for (const test of failedTests)
      failures.push(failure(`${file} › ${test.fullName}`, test.failureMessages?.[0]));
    if (result.status === 'failed' && failedTests.length === 0) {
      brokenFiles += 1;
      failures.push(failure(`${file} (did not run)`, result.message));
    }
  }
  return {
    failures,
    passed: json.numPassedTests ?? 0,
    failed: (json.numFailedTests ?? 0) + brokenFiles,
    skipped: (json.numPendingTests ?? 0) + (json.numTodoTests ?? 0),
    note: brokenFiles ? `${brokenFiles} test file(s) failed to run` : undefined,
  };
}

/** Playwright's JSON reporter: flaky tests passed on a retry; errors outside tests count once each. */
function playwrightCounts(file) {
  const json = JSON.parse(readFileSync(file, 'utf8'));
  const stats = json.stats ?? {};
  const errors = (json.errors ?? []).length;
  const failures = (json.errors ?? []).map((error) => failure('outside tests', error.message));
  const visit = (suite, titles) => {
    for (const spec of suite.specs ?? []) {
      for (const test of spec.tests ?? []) {
        if (test.status !== 'unexpected') continue;
        const result = (test.results ?? []).at(-1);
        failures.push(failure([...titles, spec.title].join(' › '), result?.error?.message));
      }
    }
    for (const child of suite.suites ?? []) visit(child, [...titles, child.title]);
  };
  for (const suite of json.suites ?? []) visit(suite, [suite.title]);
  const notes = [];
  if (stats.flaky) notes.push(`${stats.flaky} flaky (passed on retry)`);
  if (errors) notes.push(`${errors} error(s) outside tests`);
  return {
    passed: (stats.expected ?? 0) + (stats.flaky ?? 0),
    failed: (stats.unexpected ?? 0) + errors,
    skipped: stats.skipped ?? 0,
    note: notes.join(', ') || undefined,
    failures,
  };
}

function relativeName(path = '') {
  return path.startsWith(root) ? path.slice(root.length + 1) : path;
}

/**
 * A failure for the summary: its first line, then a few more (a locator and what was received, a push's
 * output), because CI keeps only the end of the output and the reason is often below the first line.
 */
function failure(title, message) {
  const lines = stripVTControlCharacters(String(message ?? ''))
    .split('\n')
    // Stack frames name the test runner's own files: the message and the output above them say why.
    .filter((line) => line.trim() && !/^\s*at /.test(line))
    .slice(0, 16)
    .map((line) => line.trimEnd().slice(0, 300));
  if (lines.length === 0) return title;
  const [first, ...rest] = lines;
  return [`${title}: ${first.trim()}`, ...rest.map((line) => `           ${line}`)].join('\n');
}

const minutes = (name, fallback) => {
  const value = Number(process.env[name]);
  return Number.isFinite(value) && value > 0 ? value : fallback;
};
const suiteTimeoutMs = minutes('BERTH_SUITE_TIMEOUT_MINUTES', 55) * 60_000;
const deadline = Date.now() + minutes('BERTH_TEST_BUDGET_MINUTES', Number.POSITIVE_INFINITY) * 60_000;

/** Every step running now (one per lane), so an interrupt stops them all. */
/** @type {Set<import('node:child_process').ChildProcess>} */
const running = new Set();
let interrupted = false;

function killGroup(child, signal) {
  try {
    process.kill(-child.pid, signal);
  } catch {
    // already gone
  }
}

for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    interrupted = true;
    for (const child of running) killGroup(child, 'SIGTERM');
  });
}

/**
 * Runs one step in its own process group (so a timeout can end all of it); resolves its outcome. Its
 * output goes to this process's, or to the sink's file when it has one.
 */
function runStep(step, timeoutMs, sink) {
  return new Promise((resolve) => {
    const env = { ...process.env };
    // Tests never reach a developer's own database or mail server.
    delete env.DATABASE_URL;
    delete env.SMTP_URL;
    for (const [key, value] of Object.entries(step.env ?? {})) {
      if (value === undefined) delete env[key];
      else env[key] = value;
    }
    const child = spawn(step.command, step.args, {
      cwd: join(root, step.cwd),
      stdio: sink.fd === undefined ? ['ignore', 'inherit', 'inherit'] : ['ignore', sink.fd, sink.fd],
      env,
      detached: true,
    });
    running.add(child);
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      sink.say(`\n[test-all] ${step.label}: no result after ${Math.round(timeoutMs / 1000)} s, stopping it`);
      killGroup(child, 'SIGTERM');
      setTimeout(() => killGroup(child, 'SIGKILL'), 10_000).unref();
    }, timeoutMs);
    child.on('error', (error) => {
      clearTimeout(timer);
      running.delete(child);
      resolve({ code: null, error: error.message, timedOut });
    });
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      running.delete(child);
      // Leftovers of the group (a web server, a browser) go with it.
      killGroup(child, 'SIGKILL');
      resolve({ code, signal, timedOut });
    });
  });
}

/** A suite's steps, then its cleanup step whatever they did (it runs even after a timeout or a crash). */
async function runSuite(suite, sink) {
  try {
    return await runSuiteSteps(suite, sink);
  } finally {
    for (const cleanup of suite.cleanup ?? []) {
      sink.say(`\n[test-all] ${suite.name}: ${cleanup.label} (${cleanup.cwd})`);
      const outcome = await runStep(cleanup, 5 * 60_000, sink);
      if (outcome.code !== 0)
        sink.say(
          `[test-all] ${suite.name}: ${cleanup.label} failed (${outcome.error ?? outcome.code ?? outcome.signal})`,
        );
    }
  }
}

async function runSuiteSteps(suite, sink) {
  const reportFile = join(reports, `${suite.name}.json`);
  rmSync(reportFile, { force: true });
  const suiteDeadline = Math.min(Date.now() + suiteTimeoutMs, deadline);
  for (const step of suite.steps) {
    const remaining = suiteDeadline - Date.now();
    if (interrupted) return { passed: 0, failed: 1, skipped: 0, note: 'interrupted' };
    if (remaining <= 0) return { passed: 0, failed: 1, skipped: 0, note: 'not run: out of time' };
    sink.say(`\n[test-all] ${suite.name}: ${step.label} (${step.cwd})`);
    const outcome = await runStep(step, remaining, sink);
    if (outcome.error) return { passed: 0, failed: 1, skipped: 0, note: `could not start: ${outcome.error}` };
    if (outcome.timedOut) {
      const counts = safeCounts(suite, reportFile);
      return { ...counts, failed: Math.max(1, counts.failed), note: `${step.label} timed out` };
    }
    if (outcome.code !== 0 && step !== suite.steps.at(-1)) {
      return {
        passed: 0,
        failed: 1,
        skipped: 0,
        note: `${step.label} failed (exit ${outcome.code ?? outcome.signal})`,
      };
    }
    if (step === suite.steps.at(-1)) {
      const counts = safeCounts(suite, reportFile);
      if (outcome.code !== 0 && counts.failed === 0) {
        const why = `exit ${outcome.code ?? outcome.signal}`;
        return { ...counts, failed: 1, note: counts.note ? `${counts.note}; ${why}` : `crashed (${why})` };
      }
      return counts;
    }
  }
  return { passed: 0, failed: 1, skipped: 0, note: 'no steps' };
}

function safeCounts(suite, reportFile) {
  if (!existsSync(reportFile)) return { passed: 0, failed: 1, skipped: 0, note: 'no report written' };
  try {
    return suite.report(reportFile);
  } catch (error) {
    return { passed: 0, failed: 1, skipped: 0, note: `unreadable report: ${error.message}` };
  }
}

function selectSuites(names) {
  if (names.length === 0) return suites;
  const unknown = names.filter((n) => !suites.some((s) => s.name === n || s.name.startsWith(`${n}-`)));
  if (unknown.length) {
    console.error(
      `[test-all] unknown suite(s): ${unknown.join(', ')}. Suites: ${suites.map((s) => s.name).join(', ')}`,
    );
    process.exit(2);
  }
  return suites.filter((s) => names.some((n) => s.name === n || s.name.startsWith(`${n}-`)));
}

const selected = selectSuites(process.argv.slice(2).filter((arg) => arg !== '--'));
mkdirSync(reports, { recursive: true });

/** The lanes of each phase, by suite name: a phase's lanes run side by side, a lane's suites in turn. */
const phases = process.env.BERTH_TEST_SERIAL
  ? [[suites.map((suite) => suite.name)]]
  : [
      [
        ['server', 'server-postgres'],
        ['core', 'web'],
      ],
      [['docker', 'swarm']],
      [['e2e']],
    ];

const phased = phases.flat(2);
const unphased = suites.filter((suite) => !phased.includes(suite.name));
if (unphased.length) throw new Error(`suites in no lane: ${unphased.map((s) => s.name).join(', ')}`);

/** Where a suite's output goes: straight through, or kept in a file and printed whole at its end. */
function streamingSink() {
  return { say: (text) => console.log(text), done: () => {} };
}
function keptSink(name) {
  const file = join(reports, `${name}.log`);
  const fd = openSync(file, 'w');
  return {
    fd,
    say: (text) => writeSync(fd, `${text}\n`),
    done: () => {
      closeSync(fd);
      console.log(`\n[test-all] ${name}: its output, kept while another suite ran (${relativeName(file)})`);
      process.stdout.write(readFileSync(file));
      console.log(`[test-all] ${name}: end of its output`);
    },
  };
}

/** @type {Map<string, object>} */
const results = new Map();
async function runLane(names, streams) {
  // In the lane's order, not the list of suites'.
  const laneSuites = names.flatMap((name) => selected.filter((s) => s.name === name));
  for (const suite of laneSuites) {
    const skipReason = await suite.when?.();
    if (skipReason) {
      console.log(`\n[test-all] ${suite.name}: skipped (${skipReason})`);
      results.set(suite.name, { name: suite.name, skippedSuite: skipReason });
      continue;
    }
    const sink = streams ? streamingSink() : keptSink(suite.name);
    const started = Date.now();
    try {
      const counts = await runSuite(suite, sink);
      results.set(suite.name, {
        name: suite.name,
        ...counts,
        seconds: Math.round((Date.now() - started) / 1000),
      });
    } finally {
      sink.done();
    }
  }
}

for (const lanes of phases) {
  const busy = lanes.filter((names) => selected.some((s) => names.includes(s.name)));
  // The first lane with work streams; with one lane only, everything streams.
  await Promise.all(busy.map((names, index) => runLane(names, index === 0)));
}
const rows = selected.map((suite) => results.get(suite.name)).filter(Boolean);

const width = Math.max(...rows.map((r) => r.name.length));
console.log('\n[test-all] summary');
let passed = 0;
let failed = 0;
for (const row of rows) {
  const name = row.name.padEnd(width);
  if (row.skippedSuite) {
    console.log(`  ${name}  skipped (${row.skippedSuite})`);
    continue;
  }
  passed += row.passed;
  failed += row.failed;
  const status = row.failed ? 'FAIL' : 'ok  ';
  const skipped = row.skipped ? `, ${row.skipped} skipped` : '';
  const note = row.note ? `  (${row.note})` : '';
  console.log(
    `  ${status} ${name}  ${row.passed} passed, ${row.failed} failed${skipped}  ${row.seconds}s${note}`,
  );
  for (const line of row.failures ?? []) console.log(`       ✗ ${line}`);
}
console.log(`${passed} passed, ${failed} failed`);
process.exitCode = failed > 0 || interrupted ? 1 : 0;
