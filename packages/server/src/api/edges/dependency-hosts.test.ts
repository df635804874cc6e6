import { describe, expect, it } from 'vitest';
import { connectionHost, dependenciesOf, hostIndex, hostWords } from './dependency-hosts.ts';

describe('hostWords', () => {
  it('finds the host of a URL, a bare host and hosts in a list, lower-cased, whole words only', () => {
    expect(hostWords('postgresql://berth:p-w_d@DB-1.Internal:5432/db')).toEqual(
      new Set(['postgresql', 'berth', 'p-w', 'd', 'db-1.internal', '5432', 'db']),
    );
    expect(hostWords('a.example, b.example.')).toEqual(new Set(['a.example', 'b.example']));
    expect(hostWords('')).toEqual(new Set());
    expect(hostWords('...')).toEqual(new Set());
  });
});

describe('connectionHost', () => {
  it('reads the host of a connection URL, and none from what has none', () => {
    expect(connectionHost('redis://u:p@cache-7.db.sim:6379')).toBe('cache-7.db.sim');
    expect(connectionHost('not a url')).toBeNull();
    expect(connectionHost('postgresql://u:p@[::1]:5432/db')).toBeNull();
  });
});

describe('dependenciesOf', () => {
  const hosts = hostIndex([
    { host: 'db-1.internal', target: { type: 'database', id: 1 } },
    { host: 'api.example.', target: { type: 'app', id: 2 } },
    { host: 'www.api.example', target: { type: 'app', id: 2 } },
    // One host for two apps (the docker runtime's public host): it names neither.
    { host: 'localhost', target: { type: 'app', id: 2 } },
    { host: 'localhost', target: { type: 'app', id: 3 } },
    { host: null, target: { type: 'app', id: 3 } },
  ]);

  it('names each resource a value holds a host of, once', () => {
    expect(
      dependenciesOf(
        ['postgresql://u:p@db-1.internal:5432/db', 'https://API.example/v1', null, 'www.api.example'],
        hosts,
      ),
    ).toEqual([
      { type: 'database', id: 1 },
      { type: 'app', id: 2 },
    ]);
  });

  it('finds nothing in a longer host, a shared host or values without one', () => {
    expect(dependenciesOf(['mydb-1.internal', 'db-12.internal', 'db-1.internal2'], hosts)).toEqual([]);
    expect(dependenciesOf(['http://localhost:3000'], hosts)).toEqual([]);
    expect(dependenciesOf(['hello', ''], hosts)).toEqual([]);
  });
});
