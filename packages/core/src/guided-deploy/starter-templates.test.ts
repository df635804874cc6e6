import { describe, expect, it } from 'vitest';
import {
  STARTER_TEMPLATES,
  starterTemplate,
  templateDatabasesLabel,
  templateDatabaseVersion,
  templateDeploySummary,
} from './starter-templates.ts';

describe('starter templates (spec 3 §9)', () => {
  it('offers Rails v7, Django v4, Express v4, Laravel v10 and the demo app', () => {
    expect(STARTER_TEMPLATES.map((template) => template.label)).toEqual([
      'Ruby on Rails v7',
      'Django v4',
      'Express v4',
      'Laravel v10',
      'Demo app',
    ]);
    expect(starterTemplate('express')?.label).toBe('Express v4');
    expect(starterTemplate('custom')).toBeNull();
    expect(starterTemplate(null)).toBeNull();
  });

  it('suggests only PostgreSQL 14 and Redis 3.0 databases', () => {
    const suggested = new Set(
      STARTER_TEMPLATES.flatMap((template) => template.databases.map((db) => `${db.type} ${db.version}`)),
    );
    expect([...suggested].sort()).toEqual(['postgresql 14', 'redis 3.0']);
  });

  it('makes Redis at its default version where real containers run it (6.2 and later)', () => {
    const redis = { envVar: 'REDIS_URL', type: 'redis', version: '3.0' } as const;
    const postgresql = { envVar: 'DATABASE_URL', type: 'postgresql', version: '14' } as const;
    expect(templateDatabaseVersion(redis, 'sim')).toBe('3.0');
    expect(templateDatabaseVersion(redis, 'docker')).toBeNull();
    expect(templateDatabaseVersion(postgresql, 'docker')).toBe('14');
    expect(templateDatabasesLabel([postgresql, redis], 'sim')).toBe(
      'PostgreSQL 14 (DATABASE_URL) and Redis 3.0 (REDIS_URL)',
    );
    expect(templateDatabasesLabel([postgresql, redis], 'docker')).toBe(
      'PostgreSQL 14 (DATABASE_URL) and Redis (REDIS_URL)',
    );
  });

  it('says what deploying one does on each runtime', () => {
    const rails = starterTemplate('rails');
    if (!rails) throw new Error('rails template missing');
    expect(templateDeploySummary(rails, 'sim')).toBe(
      'On this simulated stack, deploying it creates simulated PostgreSQL 14 (DATABASE_URL) and Redis 3.0 (REDIS_URL) databases, sets SECRET_KEY_BASE, and runs a simulated deploy of main: no code is fetched, built or run.',
    );
    expect(templateDeploySummary(rails, 'docker')).toBe(
      'Deploying it creates PostgreSQL 14 (DATABASE_URL) and Redis (REDIS_URL) databases as containers on this stack, sets SECRET_KEY_BASE, and deploys the code you push to the app’s git remote: make it with the commands below. Redis takes its default version here: this runtime runs Redis 6.2 and later, not 3.0.',
    );
  });
});
