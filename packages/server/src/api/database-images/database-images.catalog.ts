/**
 * The catalog of database engines and versions Berth offers (issue 3: real engines and versions).
 * `eolAt` is the upstream end-of-life date where one is published (sources: each project's release
 * policy as tracked by endoflife.date; Elastic's EOL table; PostgreSQL's versioning policy). Future dates
 * are kept here and only reported on the wire once reached (see database-images.hal.ts), so the catalog
 * stays right as time passes. null = no published date.
 * `isDefault` marks the version a new database gets unless the user picks another.
 */
export interface CatalogImage {
  type: string;
  version: string;
  eolAt: string | null;
  isDefault?: boolean;
}

export const DATABASE_IMAGE_CATALOG: readonly CatalogImage[] = [
  // https://www.postgresql.org/support/versioning/ (five years per major)
  { type: 'postgresql', version: '17', eolAt: '2029-11-08', isDefault: true },
  { type: 'postgresql', version: '16', eolAt: '2028-11-09' },
  { type: 'postgresql', version: '15', eolAt: '2027-11-11' },
  { type: 'postgresql', version: '14', eolAt: '2026-11-12' },
  { type: 'postgresql', version: '13', eolAt: '2025-11-13' },
  { type: 'postgresql', version: '12', eolAt: '2024-11-21' },
  { type: 'postgresql', version: '11', eolAt: '2023-11-09' },
  // Oracle lifetime support (extended support end); 8.4 is the LTS line.
  { type: 'mysql', version: '8.4', eolAt: '2032-04-30', isDefault: true },
  { type: 'mysql', version: '8.0', eolAt: '2026-04-30' },
  { type: 'mysql', version: '5.7', eolAt: '2023-10-31' },
  // Redis lists 7.4, 7.2 and 6.2 as still maintained and publishes no dates; 3.0 predates the policy.
  // 7.2 is the default: the last BSD-licensed line (7.4 is RSALv2/SSPLv1), which matters to a platform
  // that redistributes the image to its tenants.
  { type: 'redis', version: '7.4', eolAt: null },
  { type: 'redis', version: '7.2', eolAt: null, isDefault: true },
  { type: 'redis', version: '6.2', eolAt: null },
  { type: 'redis', version: '3.0', eolAt: null },
  // https://www.mongodb.com/legal/support-policy/lifecycles
  { type: 'mongodb', version: '7.0', eolAt: '2027-08-31', isDefault: true },
  { type: 'mongodb', version: '6.0', eolAt: '2025-07-31' },
  { type: 'mongodb', version: '5.0', eolAt: '2024-10-31' },
  // https://www.elastic.co/support/eol: a minor is maintained 18 months from its GA; 7.17 was extended.
  { type: 'elasticsearch', version: '8.15', eolAt: '2026-02-08', isDefault: true },
  { type: 'elasticsearch', version: '7.17', eolAt: '2026-01-15' },
  // https://www.rabbitmq.com/release-information (end of community support)
  { type: 'rabbitmq', version: '3.13', eolAt: '2024-09-17', isDefault: true },
  { type: 'rabbitmq', version: '3.12', eolAt: '2024-02-21' },
  // InfluxData has announced no end of life for 2.x, and keeps 1.x for paying customers.
  { type: 'influxdb', version: '2.7', eolAt: null, isDefault: true },
  { type: 'influxdb', version: '1.8', eolAt: null },
  // CouchDB maintains its two latest minors.
  { type: 'couchdb', version: '3.4', eolAt: null, isDefault: true },
  { type: 'couchdb', version: '3.3', eolAt: null },
];

export const ENGINE_NAMES: Record<string, string> = {
  postgresql: 'PostgreSQL',
  mysql: 'MySQL',
  redis: 'Redis',
  mongodb: 'MongoDB',
  elasticsearch: 'Elasticsearch',
  rabbitmq: 'RabbitMQ',
  influxdb: 'InfluxDB',
  couchdb: 'CouchDB',
};

/** Point-in-time recovery needs WAL archiving as Berth runs it: PostgreSQL 13 and newer. */
export function pitrSupported(image: Pick<CatalogImage, 'type' | 'version'>): boolean {
  return image.type === 'postgresql' && Number.parseFloat(image.version) >= 13;
}
