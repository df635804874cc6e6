import { describe, expect, it } from 'vitest';
import { endpointConnectionUrl } from './database-endpoint-url.ts';

const HOST = 'elb-production-7.us-east-1.on-berth.localhost';

describe('endpointConnectionUrl (contract §4.3 port_mapping)', () => {
  it("replaces the host and maps the credential's port to its published one", () => {
    expect(
      endpointConnectionUrl(
        'postgresql://berth:s3cret@db-1.internal:5432/db?sslmode=require',
        [[5432, 27001]],
        HOST,
      ),
    ).toBe(`postgresql://berth:s3cret@${HOST}:27001/db?sslmode=require`);
  });

  it('keeps a port without a pair, and takes the first pair when the URL has no port', () => {
    expect(endpointConnectionUrl('redis://:pw@cache.internal:6380', [[6379, 27002]], HOST)).toBe(
      `redis://:pw@${HOST}:6380`,
    );
    expect(endpointConnectionUrl('mongodb://u:p@db.internal/admin', [[27017, 27003]], HOST)).toBe(
      `mongodb://u:p@${HOST}:27003/admin`,
    );
  });

  it('keeps an @ inside the password and handles several pairs', () => {
    expect(
      endpointConnectionUrl(
        'amqp://u:p@ss@mq.internal:5672/vhost',
        [
          [15672, 30001],
          [5672, 30000],
        ],
        HOST,
      ),
    ).toBe(`amqp://u:p@ss@${HOST}:30000/vhost`);
  });

  it('leaves text that is not a URL, or an endpoint without a host, unchanged', () => {
    expect(endpointConnectionUrl('not a url', [[1, 2]], HOST)).toBe('not a url');
    expect(endpointConnectionUrl('postgresql://u@h:5432/db', [[5432, 1]], '')).toBe(
      'postgresql://u@h:5432/db',
    );
  });
});
