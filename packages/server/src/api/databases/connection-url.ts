import { randomBytes } from 'node:crypto';
import type { DatabaseAccount } from '../../runtimes/runtime.ts';

/** The URL scheme of each engine's clients (issue 9): what users paste into their apps. */
const SCHEMES: Record<string, string> = {
  postgresql: 'postgresql',
  mysql: 'mysql',
  redis: 'redis',
  mongodb: 'mongodb',
  elasticsearch: 'https',
  rabbitmq: 'amqps',
  influxdb: 'https',
  couchdb: 'https',
};

/** Engines whose URL names a database (or vhost) after the host. */
const NAMES_A_DATABASE = new Set(['postgresql', 'mysql', 'mongodb', 'rabbitmq', 'influxdb']);

/**
 * What an engine's clients must be told after the path: MongoDB's account is made in the admin database
 * (the official image's root user), not in the database the URL names.
 */
const QUERY: Record<string, string> = { mongodb: '?authSource=admin' };

/** A new engine account: a fixed user and database name, and a long random password. */
export function newDatabaseAccount(): DatabaseAccount {
  return { username: 'berth', password: randomBytes(24).toString('base64url'), name: 'db' };
}

/** The connection URL of an account on a database listening at host:port, in the engine's own scheme. */
export function connectionUrl(type: string, account: DatabaseAccount, host: string, port: number): string {
  const scheme = SCHEMES[type] ?? type;
  const user = encodeURIComponent(account.username);
  const password = encodeURIComponent(account.password);
  const path = NAMES_A_DATABASE.has(type) ? `/${encodeURIComponent(account.name)}` : '';
  return `${scheme}://${user}:${password}@${host}:${port}${path}${QUERY[type] ?? ''}`;
}
