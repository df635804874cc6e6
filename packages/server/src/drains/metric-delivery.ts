import { answerError, type DeliveryTls, post } from './post.ts';

// The wire formats metric drains speak: InfluxDB's line protocol (its 1.x write API with a database
// and Basic authentication, its 2.x API with an organization, a bucket and a token) and Datadog's
// series API. One point per container per minute.

/** One container's figures at one time (null: not measured, or not its kind). */
export interface MetricPoint {
  time: Date;
  environment: string;
  /** The app or database. */
  resource: string;
  layer: string;
  service: string;
  container: string;
  memoryMb: number | null;
  memoryLimitMb: number | null;
  cpuPct: number | null;
  diskGb: number | null;
}

const FIELDS: [keyof MetricPoint, string][] = [
  ['memoryMb', 'memory_mb'],
  ['memoryLimitMb', 'memory_limit_mb'],
  ['cpuPct', 'cpu_pct'],
  ['diskGb', 'disk_gb'],
];

/** Line protocol tag values escape commas, spaces and equals signs. */
const tag = (value: string) => (value || '-').replace(/[,= \\]/g, (character) => `\\${character}`);

/** `berth_container,<tags> <fields> <seconds>` per point with at least one figure. */
export function lineProtocol(points: MetricPoint[]): string {
  return points
    .map((point) => {
      const fields = FIELDS.flatMap(([key, name]) => {
        const value = point[key];
        return typeof value === 'number' && Number.isFinite(value) ? [`${name}=${value}`] : [];
      });
      if (!fields.length) return '';
      const tags = [
        `environment=${tag(point.environment)}`,
        `resource=${tag(point.resource)}`,
        `layer=${tag(point.layer)}`,
        `service=${tag(point.service)}`,
        `container=${tag(point.container)}`,
      ].join(',');
      return `berth_container,${tags} ${fields.join(',')} ${Math.floor(point.time.getTime() / 1000)}\n`;
    })
    .join('');
}

/** Any 2xx is delivered; the answer's text is never recorded (it could be anything the address serves). */
async function expect2xx(answer: { status: number; text: string }, what: string) {
  if (answer.status < 200 || answer.status >= 300) throw answerError(answer, what);
}

/** InfluxDB 1.x: POST /write?db=…&precision=s with Basic authentication. */
export async function deliverInfluxV1(
  address: string,
  account: { username: string; password: string; database: string },
  points: MetricPoint[],
  tls: DeliveryTls,
) {
  const url = new URL('/write', address);
  url.searchParams.set('db', account.database);
  url.searchParams.set('precision', 's');
  url.username = encodeURIComponent(account.username);
  url.password = encodeURIComponent(account.password);
  await expect2xx(
    await post(url, lineProtocol(points), { 'Content-Type': 'text/plain' }, tls, 'InfluxDB'),
    'InfluxDB',
  );
}

/** InfluxDB 2.x: POST /api/v2/write?org=…&bucket=…&precision=s with `Authorization: Token …`. */
export async function deliverInfluxV2(
  address: string,
  account: { org: string; authToken: string; bucket: string },
  points: MetricPoint[],
  tls: DeliveryTls,
) {
  const url = new URL('/api/v2/write', address);
  url.searchParams.set('org', account.org);
  url.searchParams.set('bucket', account.bucket);
  url.searchParams.set('precision', 's');
  await expect2xx(
    await post(
      url,
      lineProtocol(points),
      { 'Content-Type': 'text/plain', Authorization: `Token ${account.authToken}` },
      tls,
      'InfluxDB',
    ),
    'InfluxDB',
  );
}

/** Datadog: POST the series (gauges tagged by environment, resource, service and container). */
export async function deliverDatadog(
  seriesUrl: string,
  apiKey: string,
  points: MetricPoint[],
  tls: DeliveryTls,
) {
  const series = points.flatMap((point) =>
    FIELDS.flatMap(([key, name]) => {
      const value = point[key];
      if (typeof value !== 'number' || !Number.isFinite(value)) return [];
      return [
        {
          metric: `berth.container.${name}`,
          type: 'gauge',
          points: [[Math.floor(point.time.getTime() / 1000), value]],
          tags: [
            `environment:${point.environment}`,
            `resource:${point.resource}`,
            `layer:${point.layer}`,
            `service:${point.service}`,
            `container:${point.container}`,
          ],
        },
      ];
    }),
  );
  await expect2xx(
    await post(
      new URL(seriesUrl),
      JSON.stringify({ series }),
      { 'Content-Type': 'application/json', 'DD-API-KEY': apiKey },
      tls,
      'Datadog',
    ),
    'Datadog',
  );
}
