import { describe, expect, it } from 'vitest';
import { simEndpointLogs } from './sim-logs.ts';

const now = new Date('2026-11-27T12:00:00.000Z');
const endpoint = (id: number, agoMs: number) => ({
  id,
  hostname: `app-${id}.on-berth.localhost`,
  createdAt: new Date(now.getTime() - agoMs),
});

describe('simulated endpoint access lines', () => {
  it('has one request every 3 s per endpoint since it was made, oldest first, the same on every read', () => {
    const lines = simEndpointLogs([endpoint(1, 60_000), endpoint(2, 30_000)], 1000, now);
    expect(
      lines.filter((line) => line.hostname === 'app-1.on-berth.localhost').length,
    ).toBeGreaterThanOrEqual(19);
    expect(lines.filter((line) => line.hostname === 'app-2.on-berth.localhost').length).toBeLessThanOrEqual(
      11,
    );
    const times = lines.map((line) => line.time.getTime());
    expect(times).toEqual([...times].sort((a, b) => a - b));
    expect(lines.every((line) => line.time <= now && line.time.getTime() >= now.getTime() - 60_000)).toBe(
      true,
    );
    for (const line of lines) {
      expect(line.line).toMatch(
        /^203\.0\.113\.\d+ app-\d\.on-berth\.localhost "GET \/\S* HTTP\/1\.1" \d{3} \d+ \d\.\d{3}s "/,
      );
    }
    expect(simEndpointLogs([endpoint(1, 60_000), endpoint(2, 30_000)], 1000, now)).toEqual(lines);
  });

  it('keeps the newest `tail` lines, and only those after `since`', () => {
    const all = simEndpointLogs([endpoint(1, 600_000)], 1000, now);
    expect(simEndpointLogs([endpoint(1, 600_000)], 5, now)).toEqual(all.slice(-5));
    const since = new Date(now.getTime() - 10_000);
    const recent = simEndpointLogs([endpoint(1, 600_000)], 1000, now, since);
    expect(recent).toEqual(all.filter((line) => line.time > since));
    expect(recent.length).toBeGreaterThan(0);
  });
});
