import { describe, expect, it } from 'vitest';
import { appResourceFixture } from '../../../../test/app-fixtures.ts';
import { json, mockServer } from '../../../../test/fetch-mock.ts';
import { environmentHal } from '../../../../test/fixtures.ts';
import { signIn } from '../../../../test/render.tsx';
import { createProject } from './create-project.ts';

// spec 3 §4 Project creation: the stack and the name first (the spec's messages), then the environment
// of that handle reused or created, then the app.

const draft = {
  organizationId: 'org-1',
  stackId: '1',
  dedicatedStack: false,
  name: 'shop',
  environments: [],
};

describe('project creation (spec 3 §4)', () => {
  it('refuses an empty stack, then an empty name, before any call', async () => {
    const { calls } = mockServer({});
    await expect(createProject({ ...draft, stackId: '', name: '' })).rejects.toThrow('stack cannot be empty');
    await expect(createProject({ ...draft, name: ' ' })).rejects.toThrow('name cannot be empty');
    expect(calls).toEqual([]);
  });

  it('creates the environment on the stack, then the app of the same name in it', async () => {
    signIn();
    const { calls } = mockServer({
      'POST /api/accounts': () => json(201, environmentHal({ id: '12', handle: 'shop' })),
      'POST /api/accounts/12/apps': () => json(201, appResourceFixture({ id: '5', environmentId: '12' })),
    });
    const app = await createProject(draft);
    expect(app).toMatchObject({ id: '5', environmentId: '12' });
    expect(calls.map((call) => [call.path, call.body])).toEqual([
      [
        '/api/accounts',
        {
          handle: 'shop',
          organization_id: 'org-1',
          type: 'development',
          onboarding_status: 'initiated',
          stack_id: '1',
        },
      ],
      ['/api/accounts/12/apps', { handle: 'shop', account_id: '12' }],
    ]);
  });

  it('reuses the environment with the same handle', async () => {
    signIn();
    const { calls } = mockServer({
      'POST /api/accounts/10/apps': () => json(201, appResourceFixture({ id: '6' })),
    });
    await createProject({ ...draft, environments: [{ id: '10', handle: 'shop' }] });
    expect(calls.map((call) => call.path)).toEqual(['/api/accounts/10/apps']);
  });
});
