/**
 * Start-up list latency benchmark (issue 3; not a test): `npm run bench`.
 *
 * Fills one organization as bench/seed.ts does (5000 apps, 5000 services, 20000 operations, 5000
 * databases), then times the list calls the console makes at start-up (contract §7 steps 7 and 8)
 * through app.inject with a real token: median and p99 over RUNS calls after WARMUP calls.
 * Runs on in-memory PGlite, and on PostgreSQL when BENCH_DATABASE_URL (or TEST_DATABASE_URL) names a
 * server: a throwaway database is created there and dropped afterwards.
 * Calls whose route does not exist yet are reported as "not available (404)". The metric tunnel's
 * GET /proxy/:containerId is timed too (one container's series, computed by the sim runtime).
 */
import { performance } from 'node:perf_hooks';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { type Database, openDatabase } from '../src/db/client.ts';
import { openThrowawayPostgres } from '../src/testing/test-database.ts';
import { benchCall, seedBenchOrganization } from './seed.ts';

const RUNS = Number.parseInt(process.env.BENCH_RUNS ?? '30', 10);
const WARMUP = 3;

interface Target {
  name: string;
  open(): Promise<Database>;
}

interface Row {
  target: string;
  call: string;
  status: string;
  items: string;
  kb: string;
  median: string;
  p99: string;
}

function targets(): Target[] {
  const list: Target[] = [{ name: 'PGlite (memory)', open: () => openDatabase({ dataDir: 'memory://' }) }];
  const serverUrl = process.env.BENCH_DATABASE_URL || process.env.TEST_DATABASE_URL;
  if (serverUrl)
    list.push({ name: 'PostgreSQL', open: () => openThrowawayPostgres(serverUrl, 'berth_bench') });
  return list;
}

function percentile(sorted: number[], p: number): number {
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index] ?? Number.NaN;
}

async function benchTarget(target: Target): Promise<Row[]> {
  const database = await target.open();
  const config = { ...loadConfig({}), publicUrl: 'http://bench.local', publicUrlSet: true, worker: false };
  const built = await buildApp(config, { database });
  const { app } = built;
  const call = benchCall(app);

  try {
    const seedStart = performance.now();
    const seeded = await seedBenchOrganization(app, database, config);
    const { token, organizationId, containerId, counts } = seeded;
    const seedMs = performance.now() - seedStart;
    console.log(
      `${target.name}: seeded ${counts.environments} environments, ${counts.apps} apps, ${counts.services} services, ` +
        `${counts.operations} operations, ${counts.databases} databases in ${(seedMs / 1000).toFixed(1)} s`,
    );

    const calls = [
      '/api/stacks?per_page=5000',
      '/api/accounts?per_page=5000&no_embed=true&metrics[]=app_count&metrics[]=database_count',
      '/api/apps?per_page=5000&no_embed=true',
      '/api/services?per_page=5000',
      `/api/organizations/${organizationId}/operations?page=1`,
      // The rest of the start-up fan-out this server has so far (contract §7 steps 7 and 8).
      '/api/database_images',
      '/api/databases?per_page=5000&no_embed=true',
      // The /databases page asks for the disks too (the embedded list), and the backups page for 1500.
      '/api/databases?per_page=5000',
      '/api/backups?per_page=1500&page=1',
      '/api/deployments?per_page=5000',
      '/api/sources',
      `/api/costs/${organizationId}/accounts`,
      `/api/costs/${organizationId}/apps`,
      `/api/costs/${organizationId}/services`,
      `/api/costs/${organizationId}/databases`,
      // One chart series as the Metrics tab asks for it (contract §5.14), and the largest one allowed.
      `/metrics/proxy/${containerId}?horizon=1h&metric=memory_all&requestedTicks=300`,
      `/metrics/proxy/${containerId}?horizon=1w&metric=cpu_pct&requestedTicks=1000`,
    ];
    const rows: Row[] = [];
    for (const url of calls) {
      const label = url.replace(organizationId, ':orgId');
      const first = await call('GET', url, token);
      if (first.statusCode === 404 && first.json().message?.startsWith('No route')) {
        rows.push({
          target: target.name,
          call: label,
          status: 'not available (404)',
          items: '',
          kb: '',
          median: '',
          p99: '',
        });
        continue;
      }
      if (first.statusCode !== 200) {
        rows.push({
          target: target.name,
          call: label,
          status: `HTTP ${first.statusCode}`,
          items: '',
          kb: '',
          median: '',
          p99: '',
        });
        continue;
      }
      const body = first.json();
      // Plain JSON answers (the metric tunnel's table) have no items to count.
      const embedded = body._embedded ? (Object.values(body._embedded)[0] as unknown[]) : null;
      for (let i = 0; i < WARMUP; i += 1) await call('GET', url, token);
      const times: number[] = [];
      for (let i = 0; i < RUNS; i += 1) {
        const start = performance.now();
        const response = await call('GET', url, token);
        times.push(performance.now() - start);
        if (response.statusCode !== 200) throw new Error(`${url} answered ${response.statusCode}`);
      }
      times.sort((a, b) => a - b);
      rows.push({
        target: target.name,
        call: label,
        status: '200',
        items: String(Array.isArray(embedded) ? embedded.length : ''),
        kb: (first.rawPayload.length / 1024).toFixed(0),
        median: percentile(times, 50).toFixed(1),
        p99: percentile(times, 99).toFixed(1),
      });
    }
    return rows;
  } finally {
    await built.close();
  }
}

function printTable(rows: Row[]): void {
  const header: Row = {
    target: 'database',
    call: 'call',
    status: 'status',
    items: 'items',
    kb: 'KiB',
    median: 'median ms',
    p99: 'p99 ms',
  };
  const keys = Object.keys(header) as (keyof Row)[];
  const widths = keys.map((key) => Math.max(...[header, ...rows].map((row) => row[key].length)));
  const line = (row: Row) =>
    `| ${keys
      .map((key, i) => {
        const width = widths[i] ?? 0;
        const numeric = key === 'items' || key === 'kb' || key === 'median' || key === 'p99';
        return numeric ? row[key].padStart(width) : row[key].padEnd(width);
      })
      .join(' | ')} |`;
  console.log(line(header));
  console.log(`|${widths.map((width) => '-'.repeat(width + 2)).join('|')}|`);
  for (const row of rows) console.log(line(row));
}

const all: Row[] = [];
for (const target of targets()) all.push(...(await benchTarget(target)));
console.log(`\n${RUNS} timed calls each after ${WARMUP} warm-up calls, through app.inject (no network).\n`);
printTable(all);
if (!process.env.BENCH_DATABASE_URL && !process.env.TEST_DATABASE_URL) {
  console.log('\nSet BENCH_DATABASE_URL=postgres://... to run the same on PostgreSQL.');
}
