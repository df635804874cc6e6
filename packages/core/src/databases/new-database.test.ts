import { describe, expect, it } from 'vitest';
import {
  compareImageVersions,
  newDatabaseImage,
  newDatabaseMonthlyCost,
  newestImageOf,
} from './new-database.ts';

const image = (type: string, version: string) => ({ type, version });

describe('the image a new database starts on (issue 41)', () => {
  it('compares versions as numbers, part by part', () => {
    expect(compareImageVersions('17', '9.6')).toBeGreaterThan(0);
    expect(compareImageVersions('9.6', '9.5')).toBeGreaterThan(0);
    expect(compareImageVersions('8.15', '8.4')).toBeGreaterThan(0);
    expect(compareImageVersions('7.2', '7.2.0')).toBe(0);
    expect(compareImageVersions('latest', '1')).toBeLessThan(0);
  });

  it('takes PostgreSQL’s newest version wherever it sits in the list', () => {
    const images = [
      image('couchdb', '3.4'),
      image('postgresql', '9.6'),
      image('postgresql', '17'),
      image('postgresql', '16'),
      image('redis', '7.4'),
    ];
    expect(newDatabaseImage(images)).toBe(images[2]);
    expect(newestImageOf(images, 'redis')).toBe(images[4]);
    expect(newestImageOf(images, 'mysql')).toBeUndefined();
  });

  it('falls back to the first image without PostgreSQL, and to nothing without images', () => {
    const images = [image('redis', '7.2'), image('mysql', '8.4')];
    expect(newDatabaseImage(images)).toBe(images[0]);
    expect(newDatabaseImage([])).toBeUndefined();
  });
});

describe('newDatabaseMonthlyCost (spec 2 §9 rates)', () => {
  it('prices the default database: 1 GB of m5 and 10 GB of disk', () => {
    // 1 × 1 GB × 0.08 × 730 + 10 × 0.2
    expect(newDatabaseMonthlyCost({ containerSizeMb: 1024, diskSizeGb: 10 })).toBeCloseTo(60.4, 10);
  });

  it('grows with the container, the disk and the IOPS above 3000', () => {
    // 1 × 4 GB × 0.08 × 730 + 100 × 0.2 + 2000 × 0.01
    expect(
      newDatabaseMonthlyCost({ containerSizeMb: 4096, diskSizeGb: 100, provisionedIops: 5000 }),
    ).toBeCloseTo(273.6, 10);
  });
});
