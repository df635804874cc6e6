import { databasePlaceholder, starterTemplate } from '@berth/core';
import { describe, expect, it } from 'vitest';
import {
  draftDatabaseHandles,
  templateDatabases,
  templateDeployDraft,
  templateSecret,
  templateVariables,
} from './template-draft.ts';

const images = [
  { id: '1', type: 'postgresql', version: '17', visible: true, isDefault: true },
  { id: '2', type: 'postgresql', version: '14', visible: true, isDefault: false },
  { id: '3', type: 'redis', version: '7.2', visible: true, isDefault: true },
  { id: '4', type: 'redis', version: '3.0', visible: true, isDefault: false },
];

describe('a starter template as a deploy draft (spec 3 §9)', () => {
  it('picks PostgreSQL 14 and Redis 3.0 on sim, and the default Redis where containers run it', () => {
    const demo = starterTemplate('demo');
    expect(templateDatabases(demo, 'sim', images)).toEqual([
      { envVar: 'DATABASE_URL', imageId: '2' },
      { envVar: 'REDIS_URL', imageId: '4' },
    ]);
    expect(templateDatabases(demo, 'docker', images)).toEqual([
      { envVar: 'DATABASE_URL', imageId: '2' },
      { envVar: 'REDIS_URL', imageId: '3' },
    ]);
    // An image the catalog does not offer leaves the selector for the user to pick.
    expect(templateDatabases(demo, 'sim', images.slice(0, 1))).toEqual([
      { envVar: 'DATABASE_URL', imageId: '' },
      { envVar: 'REDIS_URL', imageId: '' },
    ]);
    expect(templateDatabases(null, 'sim', images)).toEqual([]);
  });

  it('makes the secrets a framework expects, new each time', () => {
    expect(templateSecret('hex')).toMatch(/^[0-9a-f]{128}$/);
    expect(templateSecret('hex')).not.toBe(templateSecret('hex'));
    const key = templateSecret('laravel-key');
    expect(key).toMatch(/^base64:[A-Za-z0-9+/]{43}=$/);
    expect(atob(key.slice('base64:'.length))).toHaveLength(32);
  });

  it("sets the template's variables the app does not have yet", () => {
    const laravel = starterTemplate('laravel');
    const fresh = templateVariables(laravel, {});
    expect(fresh.map((variable) => variable.key)).toEqual(['DB_CONNECTION', 'APP_KEY']);
    expect(fresh[0]?.value).toBe('pgsql');
    expect(templateVariables(laravel, { APP_KEY: 'kept', DB_CONNECTION: null })).toEqual([
      { key: 'DB_CONNECTION', value: 'pgsql' },
    ]);
  });

  it('names the databases after the app, past the handles the environment has', () => {
    expect(
      draftDatabaseHandles(
        'shop',
        [
          { envVar: 'DATABASE_URL', imageId: '2' },
          { envVar: 'OTHER_URL', imageId: '1' },
          { envVar: 'REDIS_URL', imageId: '' },
        ],
        images,
        ['shop-postgresql'],
      ),
    ).toEqual(['shop-postgresql-2', 'shop-postgresql-3', 'shop-database']);
  });

  it('deploys the template with its databases, the app’s own variables kept', () => {
    const draft = templateDeployDraft({
      app: { id: '7', handle: 'shop', environmentId: '3' },
      template: starterTemplate('express'),
      runtime: 'sim',
      images,
      existingDatabaseHandles: [],
      currentEnv: { KEEP: 'yes', DATABASE_URL: databasePlaceholder('old'), GONE: null },
      gitRef: 'main',
    });
    expect(draft).toEqual({
      appId: '7',
      environmentId: '3',
      databases: [{ envVar: 'DATABASE_URL', imageId: '2', handle: 'shop-postgresql', type: 'postgresql' }],
      variables: [{ key: 'KEEP', value: 'yes' }],
      currentEnv: { KEEP: 'yes', DATABASE_URL: databasePlaceholder('old'), GONE: null },
      gitRef: 'main',
    });
  });
});
