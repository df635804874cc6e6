/**
 * Global search in the benchmarks' organization (issue 38; not a test): what it finds there besides the
 * apps, services and databases seed.ts makes (a deployment per app, sources, endpoints), and the
 * searches `npm run bench` times, each within SEARCH_BUDGET_MS on the server as a keystroke's answer:
 * as the large organization types them, and as a small one on the same installation does (its search
 * must not pay for the large one's rows, which match the same texts).
 */
import { createHash } from 'node:crypto';
import type { Db } from '../src/db/client.ts';
import { deployments, sources, vhosts } from '../src/db/schema.ts';

/** issue 38: each keystroke's answer in under 100 ms. */
export const SEARCH_BUDGET_MS = 100;
const SOURCES = 20;
/** One endpoint per this many apps: enough to search, few enough to leave the costs figures as they were. */
const APPS_PER_ENDPOINT = 50;
const CHUNK = 1000;

/** The commit of the i-th app's deployment: known to the timed calls, spread like real hashes. */
export const benchCommit = (i: number) => createHash('sha1').update(`bench-${i}`).digest('hex');

/** A deployment per app (its git ref, commit and source), the sources, and some endpoints. */
export async function seedSearchable(
  db: Db,
  organization: {
    id: string;
    appIds: number[];
    webServiceIds: number[];
    environmentOf: (i: number) => number;
  },
): Promise<void> {
  const sourceRows = await db
    .insert(sources)
    .values(
      Array.from({ length: SOURCES }, (_, i) => ({
        organizationId: organization.id,
        displayName: `bench/repository-${i}`,
        url: `https://git.example/bench/repository-${i}.git`,
      })),
    )
    .returning({ id: sources.id });
  const rows = organization.appIds.map((appId, i) => ({
    appId,
    environmentId: organization.environmentOf(i),
    operationId: 0,
    sourceId: sourceRows[i % SOURCES]?.id ?? null,
    status: 'succeeded',
    gitRef: i % 2 ? 'main' : `release-${i}`,
    gitCommitSha: benchCommit(i),
    gitRepositoryUrl: `https://git.example/bench/repository-${i % SOURCES}.git`,
  }));
  for (let start = 0; start < rows.length; start += CHUNK) {
    await db.insert(deployments).values(rows.slice(start, start + CHUNK));
  }
  const endpoints = organization.webServiceIds.flatMap((serviceId, i) =>
    i % APPS_PER_ENDPOINT === 0
      ? [
          {
            environmentId: organization.environmentOf(i),
            serviceId,
            status: 'provisioned',
            virtualDomain: `app-${i}-bench.on-berth.localhost`,
          },
        ]
      : [],
  );
  for (let start = 0; start < endpoints.length; start += CHUNK) {
    await db.insert(vhosts).values(endpoints.slice(start, start + CHUNK));
  }
}

/** The searches timed, as the palette sends them while one types: each kind of match, found or not. */
export function searchCalls(apps: number): string[] {
  const last = apps - 1;
  const q = (text: string) => `/api/search?${new URLSearchParams({ q: text })}`;
  return [
    // One character: the handles' start only.
    q('a'),
    // Every app matches: the first 15 by their start, and anywhere.
    q('app'),
    q(`app-${String(last).slice(0, 3)}`),
    // The whole handle of the last app made.
    q(`app-${last}`),
    // Inside handles only (no handle starts so).
    q(`pp-${last}`),
    // An id.
    q(String(Math.floor(apps / 2))),
    // A git ref half the deployments have, and one commit.
    q('release'),
    q(benchCommit(last).slice(0, 10)),
    // An endpoint's host name, an engine, and nothing at all.
    q('bench.on-berth'),
    q('redis'),
    q('no-such-resource-anywhere'),
    // Recently Viewed and Most Visited named at once.
    `/api/search?${new URLSearchParams({
      resources: Array.from({ length: 10 }, (_, i) => `app-${i + 1}`)
        .concat(Array.from({ length: 10 }, (_, i) => `database-${i + 1}`))
        .join(','),
    })}`,
  ];
}
