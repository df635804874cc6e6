import fs from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readEdgeAccessLog } from './edge-access-log.ts';

const dir = fs.mkdtempSync(path.join(tmpdir(), 'berth-access-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const entry = (ts: number, host: string, uri = '/', status = 200) =>
  JSON.stringify({
    level: 'info',
    ts,
    logger: 'http.log.access',
    msg: 'handled request',
    request: {
      remote_ip: '192.0.2.4',
      host,
      method: 'GET',
      uri,
      proto: 'HTTP/1.1',
      headers: { 'User-Agent': ['curl/8.5.0'] },
    },
    duration: 0.0123,
    size: 42,
    status,
  });

describe("the edge's access log", () => {
  it("reads the asked hostnames' requests, port or case aside, after `since`, the newest `tail`", async () => {
    const file = path.join(dir, 'access.log');
    const base = 1_790_000_000;
    fs.writeFileSync(
      file,
      [
        entry(base, 'app-1.localhost:8080', '/a'),
        'not json at all',
        entry(base + 1, 'other.localhost'),
        entry(base + 2, 'APP-1.localhost', '/b', 404),
        '{"ts": "broken"',
        entry(base + 3, 'app-1.localhost', '/c'),
        '',
      ].join('\n'),
    );
    const hosts = new Set(['app-1.localhost']);
    const lines = await readEdgeAccessLog(file, hosts, 100);
    expect(lines.map((line) => line.line)).toEqual([
      '192.0.2.4 app-1.localhost "GET /a HTTP/1.1" 200 42 0.012s "curl/8.5.0"',
      '192.0.2.4 app-1.localhost "GET /b HTTP/1.1" 404 42 0.012s "curl/8.5.0"',
      '192.0.2.4 app-1.localhost "GET /c HTTP/1.1" 200 42 0.012s "curl/8.5.0"',
    ]);
    expect(lines[0]?.time).toEqual(new Date(base * 1000));
    expect(await readEdgeAccessLog(file, hosts, 1)).toEqual(lines.slice(-1));
    expect(await readEdgeAccessLog(file, hosts, 100, new Date((base + 2) * 1000))).toEqual(lines.slice(-1));
  });

  it('has nothing before the edge answered anything', async () => {
    expect(await readEdgeAccessLog(path.join(dir, 'missing.log'), new Set(['a']), 10)).toEqual([]);
  });

  it('reads only the end of a big log, from a whole line', async () => {
    const file = path.join(dir, 'big.log');
    const filler = entry(1, 'filler.localhost', `/${'x'.repeat(1000)}`);
    const lines = Array.from({ length: 5000 }, () => filler);
    lines.push(entry(2, 'app-2.localhost', '/last'));
    fs.writeFileSync(file, `${lines.join('\n')}\n`);
    const read = await readEdgeAccessLog(file, new Set(['app-2.localhost', 'filler.localhost']), 100_000);
    // 4 MB of some 5 MB: the oldest fillers are not read, the newest request is.
    expect(read.length).toBeLessThan(5000);
    expect(read.at(-1)?.line).toContain('/last');
  });
});
