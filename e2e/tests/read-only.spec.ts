import type { APIRequestContext, Locator } from '@playwright/test';
import { createAccountEnvironment, logInBrowser } from '../fixtures/accounts.ts';
import { createApp, deployApp } from '../fixtures/operations.ts';
import { createRoleWithScopes, inviteAndAccept } from '../fixtures/team.ts';
import { expect, test } from '../fixtures/test.ts';

// spec 1 §6 and spec 3 §2: a member whose role holds only Full Visibility ("read") on an environment
// sees every action that needs more disabled, with the rule's text as the tooltip; and the server
// refuses the same actions when they are called anyway. The member joins the way the product lets
// people join: the owner makes a role, grants it read on the environment and invites them.

const denial = (scope: string, environmentId: string) =>
  `You do not have "${scope}" permissions for this environment (id:${environmentId})`;

// Issue 20: after the rule's text, the tooltip says in plain words what is missing, where, whom to ask.
const LABELS: Record<string, string> = { deploy: 'Deployment', observability: 'Ops', destroy: 'Destroy' };
const plainWords = (scope: string, handle: string) =>
  `Needs ${LABELS[scope]} on the ${handle} environment. ` +
  'Ask an owner of the organization, or an admin of one of your roles, to grant it.';

async function expectDenied(button: Locator, message: string) {
  await expect(button).toBeVisible();
  await expect(button).toHaveAttribute('aria-disabled', 'true');
  const scope = /"([a-z_]+)"/.exec(message)?.[1] ?? '';
  await expect(button).toHaveAccessibleDescription(`${message} ${plainWords(scope, 'readonly-prod')}`);
  // The tip shows while the pointer is over the button (CSS :hover): when the page's later data moves
  // the button from under the pointer, it hides, so the pointer goes to the button again.
  await expect(async () => {
    await button.hover();
    await expect(button.page().getByRole('tooltip', { name: message })).toBeVisible({ timeout: 1000 });
  }).toPass({ timeout: 10_000 });
}

async function waitForOperation(request: APIRequestContext, token: string, id: string) {
  await expect
    .poll(
      async () => {
        const response = await request.get(`/api/operations/${id}`, {
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/hal+json' },
        });
        return ((await response.json()) as { status: string }).status;
      },
      { timeout: 60_000, intervals: [500] },
    )
    .toBe('succeeded');
}

test('a member with only read scope sees actions disabled and the server refuses them', async ({
  page,
  account,
  verifiedUser: reader,
  request,
}) => {
  test.setTimeout(120_000);
  const ownerToken = account.token.accessToken;
  const environment = await createAccountEnvironment(request, account, 'readonly-prod');
  const app = await createApp(request, ownerToken, environment.id, 'catalog');
  const deploy = await deployApp(request, ownerToken, app.id, 'main');
  await waitForOperation(request, ownerToken, deploy.id);

  const role = await createRoleWithScopes(request, account, {
    name: 'Readers',
    environment,
    scopes: ['read'],
  });
  await inviteAndAccept(request, account, role, reader);
  await logInBrowser(page.context(), reader);

  // The environment: they see it and its app, but cannot add apps, rename or deprovision it.
  await page.goto(`/environments/${environment.id}`);
  await expect(page.getByRole('heading', { level: 1, name: 'readonly-prod' })).toBeVisible();
  await expectDenied(page.getByRole('button', { name: 'New App' }), denial('deploy', environment.id));

  // The app: Deploy is disabled and clicking it opens nothing.
  await page.goto(`/apps/${app.id}`);
  await expect(page.getByRole('heading', { level: 1, name: 'catalog' })).toBeVisible();
  const deployButton = page.getByRole('main').getByRole('button', { name: 'Deploy', exact: true });
  await expectDenied(deployButton, denial('deploy', environment.id));
  await deployButton.click({ force: true });
  await expect(page.getByRole('textbox', { name: 'Git Ref' })).toHaveCount(0);

  // Full Visibility reads the configuration, but saving it needs deploy.
  await page.goto(`/apps/${app.id}/config`);
  await expectDenied(
    page.getByRole('button', { name: 'Save Configuration' }),
    denial('deploy', environment.id),
  );

  // Settings: rename needs deploy, restart needs Ops (observability), deprovision needs destroy.
  await page.goto(`/apps/${app.id}/settings`);
  const rename = page.getByRole('form', { name: 'Rename App' });
  await rename.getByRole('textbox', { name: 'New Handle' }).fill('catalog-2');
  await expectDenied(rename.getByRole('button', { name: 'Save Changes' }), denial('deploy', environment.id));
  await expectDenied(
    page.getByRole('button', { name: 'Restart App' }),
    denial('observability', environment.id),
  );
  const deprovision = page.getByRole('form', { name: 'Deprovision App' });
  await deprovision.getByRole('textbox', { name: 'Type catalog to confirm' }).fill('catalog');
  await expectDenied(
    deprovision.getByRole('button', { name: 'Deprovision App' }),
    denial('destroy', environment.id),
  );

  // The server is the authority: the same calls made with the member's own token are refused.
  const readerHeaders = {
    authorization: `Bearer ${reader.token.accessToken}`,
    'content-type': 'application/hal+json',
  };
  const refusedDeploy = await request.post(`/api/apps/${app.id}/operations`, {
    headers: readerHeaders,
    data: JSON.stringify({ type: 'deploy', git_ref: 'main' }),
  });
  expect(refusedDeploy.status()).toBe(403);
  expect(((await refusedDeploy.json()) as { message: string }).message).toBe(
    denial('deploy', environment.id),
  );
  const refusedApp = await request.post(`/api/accounts/${environment.id}/apps`, {
    headers: readerHeaders,
    data: JSON.stringify({ handle: 'sneaky', account_id: environment.id }),
  });
  expect(refusedApp.status()).toBe(403);
  const refusedRemoval = await request.post(`/api/apps/${app.id}/operations`, {
    headers: readerHeaders,
    data: JSON.stringify({ type: 'deprovision' }),
  });
  expect(refusedRemoval.status()).toBe(403);
  expect(((await refusedRemoval.json()) as { message: string }).message).toBe(
    denial('destroy', environment.id),
  );
  // ...while reading is allowed: the app and its configuration answer.
  const readable = await request.get(`/api/apps/${app.id}`, { headers: readerHeaders });
  expect(readable.status()).toBe(200);
});
