import type { Page } from '@playwright/test';
import { createAccountEnvironment, DEFAULT_PASSWORD, logIn } from '../fixtures/accounts.ts';
import { passwordField, sidebar } from '../fixtures/console.ts';
import { uniqueEmail, uniqueSuffix } from '../fixtures/emails.ts';
import { verificationLink } from '../fixtures/mailbox.ts';
import { createApp, deployedService, getJson } from '../fixtures/operations.ts';
import { inTheme, SCHEMES, sideways } from '../fixtures/screen.ts';
import { expect, test } from '../fixtures/test.ts';

// Issue 38, guided deploy (spec 3 "Guided app deployment", "Create flows", §4 project creation, project
// deploy and redeploy, §8 project messages, §9 starter templates), on the e2e server's default `sim` stack.

const DEPLOY_TIMEOUT = 90_000;

// Each step opens a new page of the console; on this project's shared 2-core machine a busy hour has
// taken 10 s between a page's first answers (the browser starved of CPU), so pages get 30 s here.
const slow = expect.configure({ timeout: 30_000 });

/** The steps' list marks the current step. */
async function expectStep(page: Page, label: string) {
  await expect(
    page.getByRole('list', { name: 'Deploy steps' }).locator('[aria-current="step"]'),
  ).toContainText(label);
}

test.describe('guided deploy', () => {
  test('a new user goes from sign-up through the guided deploy to a running app without typing a URL', async ({
    page,
    mailbox,
    request,
  }) => {
    test.setTimeout(180_000);
    const email = uniqueEmail('guided');
    const name = `shop-${uniqueSuffix()}`;

    // Sign-up (spec 1 §2), then the mailed verification link.
    await page.goto('/signup');
    await page.getByRole('textbox', { name: 'Name' }).fill('Grace Hopper');
    await page.getByRole('textbox', { name: 'Company' }).fill(`Harbour ${uniqueSuffix()}`);
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByRole('textbox', { name: 'Email' }).fill(email);
    await passwordField(page).fill(DEFAULT_PASSWORD);
    await page.getByRole('button', { name: 'Create Account' }).click();
    await page.getByRole('button', { name: 'Create Organization' }).click();
    await expect(page.getByRole('heading', { name: 'Verify your email' })).toBeVisible();
    const link = verificationLink(await mailbox.waitFor({ to: email }));
    await page.goto(link.url);
    // A member of an organization lands on its Home (issue 38), even before any environment exists.
    await slow(page.getByRole('heading', { level: 1, name: 'Home' })).toBeVisible();

    // The sidebar's Deploy button opens the guided deploy: no environment yet, so a new one.
    await sidebar(page).getByRole('link', { name: 'Deploy', exact: true }).click();
    await slow(page).toHaveURL(/\/deploy(\?|$)/);
    await slow(page.getByRole('heading', { level: 1, name: 'Choose your Environment' })).toBeVisible();
    await expectStep(page, 'Name App');
    await expect(page.getByRole('combobox', { name: 'Environment' })).toHaveValue('new');
    await page.getByRole('button', { name: 'Next' }).click();

    // Step 1, "Name your Environment" (spec 3 §4 Project creation, its messages word for word).
    await slow(page).toHaveURL(/\/create\/deployments\?stack_id=/);
    await slow(page.getByRole('heading', { level: 1, name: 'Name your Environment' })).toBeVisible();
    await page.getByRole('button', { name: 'Create App' }).click();
    await expect(page.getByText('name cannot be empty', { exact: true })).toBeVisible();
    const stack = page.getByRole('combobox', { name: 'Stack' });
    const stackId = await stack.inputValue();
    await stack.selectOption('');
    await page.getByRole('button', { name: 'Create App' }).click();
    await expect(page.getByText('stack cannot be empty', { exact: true })).toBeVisible();
    await stack.selectOption(stackId);
    await page.getByRole('textbox', { name: 'Name' }).fill(name);
    await page.getByRole('button', { name: 'Create App' }).click();

    // Status detection: no deploy yet, so step 2 (the git page; on sim, a simulated deploy).
    await slow(page).toHaveURL(/\/apps\/\d+\/git/);
    const appId = /\/apps\/(\d+)\//.exec(page.url())?.[1] ?? '';
    await slow(page.getByRole('heading', { level: 1, name: 'Deploy your Code' })).toBeVisible();
    await expectStep(page, 'SSH/Git');
    await expect(page.getByRole('note', { name: 'Simulated' })).toBeVisible();
    const code = page.getByRole('combobox', { name: 'Code' });
    // spec 3 §9: the starter templates beside custom code.
    await expect(code.locator('option')).toHaveText([
      'Custom Code',
      'Ruby on Rails v7 Template',
      'Django v4 Template',
      'Express v4 Template',
      'Laravel v10 Template',
      'Demo app Template',
    ]);
    await code.selectOption({ label: 'Express v4 Template' });
    await expect(
      page.getByText(
        'On this simulated stack, deploying it creates simulated PostgreSQL 14 (DATABASE_URL) databases, and runs a simulated deploy of main: no code is fetched, built or run.',
      ),
    ).toBeVisible();
    await page.getByRole('link', { name: 'Configure first' }).click();

    // Step 3, Configure App: no code scan on sim; the template's database; a .env file pasted in.
    await slow(page).toHaveURL(/\/deploy\/configure\?git_ref=main&template=express/);
    await slow(page.getByRole('heading', { level: 1, name: 'Configure your App' })).toBeVisible();
    await expectStep(page, 'Configure');
    await expect(
      page.getByText(
        'The code scan is only available for git-push deployments: this simulated stack reads no code.',
      ),
    ).toBeVisible();
    const selectors = page.getByRole('group', { name: /^Database \d/ });
    await expect(selectors).toHaveCount(1);
    const first = selectors.first();
    await expect(first).toHaveAccessibleName(`Database 1: ${name}-postgresql`);
    await expect(first.getByRole('textbox', { name: 'Environment Variable' })).toHaveValue('DATABASE_URL');
    const chosenImage = first.getByRole('combobox', { name: 'Database' });
    expect(await chosenImage.evaluate((select: HTMLSelectElement) => select.selectedOptions[0]?.text)).toBe(
      'PostgreSQL 14',
    );

    // spec 2 §5's database selector messages, word for word.
    await page.getByRole('button', { name: 'Add Database' }).click();
    const second = selectors.nth(1);
    await expect(second.getByText('Must pick a database or delete the selector from the menu')).toBeVisible();
    await second.getByRole('combobox', { name: 'Database' }).selectOption({ index: 1 });
    await second.getByRole('textbox', { name: 'Environment Variable' }).fill('DATABASE_URL');
    await expect(
      second.getByText('DATABASE_URL has already been used, each database env var must be unique'),
    ).toBeVisible();
    await expect(page.getByRole('button', { name: 'Save & Deploy' })).toBeDisabled();
    await page.getByRole('button', { name: 'Delete database 2' }).click();

    // A .env file: its bad key is refused with the spec's message, and nothing is added.
    const dotenv = page.getByRole('textbox', { name: 'Paste a .env file' });
    await dotenv.fill('bad-key=1');
    await page.getByRole('button', { name: 'Add to Variables' }).click();
    await expect(page.getByText('bad-key does not match regex: /[a-zA-Z_]+[a-zA-Z0-9_]*/')).toBeVisible();
    await dotenv.fill('# from .env\nexport API_KEY=abc123\nGREETING="hello world" # said at start\n');
    await page.getByRole('button', { name: 'Add to Variables' }).click();
    const variables = page.getByRole('textbox', { name: 'Variables', exact: true });
    await expect(variables).toHaveValue('API_KEY=abc123\nGREETING=hello world');
    await expect(dotenv).toHaveValue('');
    // "Load a .env file" is a button the keyboard reaches (the empty paste box leaves "Add to Variables"
    // disabled), drawn with the focus ring, and it opens the file chooser.
    await dotenv.focus();
    await page.keyboard.press('Tab');
    const load = page.getByRole('button', { name: 'Load a .env file' });
    await expect(load).toBeFocused();
    // The focus ring is an outline (issue 41: one ring of at least 3:1 on every control).
    expect(await load.evaluate((element) => getComputedStyle(element).outlineStyle)).toBe('solid');
    const chooser = page.waitForEvent('filechooser');
    await page.keyboard.press('Enter');
    await (await chooser).setFiles({
      name: '.env',
      mimeType: 'text/plain',
      buffer: Buffer.from('LOADED=1\n'),
    });
    await expect(dotenv).toHaveValue('LOADED=1\n');
    await dotenv.fill('');
    // A variable the database also sets is one key twice (spec 2 §5).
    await variables.fill('API_KEY=abc123\nGREETING=hello world\nDATABASE_URL=postgres://elsewhere');
    await expect(page.getByText('DATABASE_URL found multiple times, must be unique')).toBeVisible();
    await variables.fill('API_KEY=abc123\nGREETING=hello world');
    await page.getByRole('button', { name: 'Save & Deploy' }).click();

    // Step 4, followed live to the spec's headings.
    await slow(page).toHaveURL(new RegExp(`/apps/${appId}/deploy/status$`));
    await slow(page.getByRole('heading', { level: 1, name: 'Deploying' })).toBeVisible();
    await expectStep(page, 'Deploy');
    const progress = page.getByRole('list', { name: 'Deploy progress' });
    await expect(progress).toContainText(`Database provision ${name}-postgresql`);
    await slow(page.getByRole('heading', { level: 1, name: 'Deployed your Code' })).toBeVisible({
      timeout: DEPLOY_TIMEOUT,
    });
    await expect(
      page.getByText('All done! Deployment completed successfully.', { exact: true }),
    ).toBeVisible();
    // The outcome is announced, not only drawn.
    await expect(
      page
        .getByRole('status')
        .filter({ hasText: 'Deployed your Code. All done! Deployment completed successfully.' }),
    ).toHaveCount(1);
    await expect(progress.getByText('FAILED')).toHaveCount(0);

    // Deployed: the offer of an endpoint, then the running app's address.
    await expect(page.getByRole('heading', { name: 'Which service needs an Endpoint?' })).toBeVisible();
    await page.getByRole('button', { name: 'Create Endpoint' }).click();
    await expect(page.getByRole('heading', { name: 'Current Endpoints' })).toBeVisible();
    const address = page.locator('.endpoint-address').getByRole('link');
    await expect(address).toHaveAttribute('href', /^https?:\/\/\S+/, { timeout: DEPLOY_TIMEOUT });
    await page.screenshot({ path: test.info().outputPath('deployed.png'), fullPage: true });

    // The app runs with the database's connection URL and the pasted variables (read through the API).
    const token = await logIn(request, { email, password: DEFAULT_PASSWORD });
    const app = await getJson<{ _links: { current_configuration?: { href: string } } }>(
      request,
      token.accessToken,
      `/api/apps/${appId}`,
    );
    const configurationHref = app._links.current_configuration?.href ?? '';
    const configuration = await getJson<{ env: Record<string, string> }>(
      request,
      token.accessToken,
      new URL(configurationHref).pathname,
    );
    expect(configuration.env).toMatchObject({ API_KEY: 'abc123', GREETING: 'hello world' });
    expect(configuration.env.DATABASE_URL).toMatch(/^postgresql:\/\//);
  });

  test('a failed deploy says so, advises, and Redeploy tries again (spec 3 §4 Redeploy)', async ({
    signedInPage: page,
    account,
  }) => {
    test.setTimeout(120_000);
    await createAccountEnvironment(page.request, account, `prod-${uniqueSuffix()}`);
    await page.goto('/environments');
    await sidebar(page).getByRole('link', { name: 'Deploy', exact: true }).click();
    await slow(page.getByRole('heading', { level: 1, name: 'Choose your Environment' })).toBeVisible();
    await page.getByRole('button', { name: 'Next' }).click();

    // Step 1 in an existing environment: "Name your App", stack and environment read-only.
    await slow(page.getByRole('heading', { level: 1, name: 'Name your App' })).toBeVisible();
    await expect(page.getByRole('textbox', { name: 'Stack' })).toHaveAttribute('readonly', '');
    // `simfail` in the handle makes the simulated build fail (README, the sim runtime).
    await page.getByRole('textbox', { name: 'Handle' }).fill(`simfail-${uniqueSuffix()}`);
    await page.getByRole('button', { name: 'Create App' }).click();

    await slow(page.getByRole('heading', { level: 1, name: 'Deploy your Code' })).toBeVisible();
    await expect(page.getByRole('textbox', { name: 'Git Ref' })).toHaveValue('main');
    await page.getByRole('button', { name: 'Deploy', exact: true }).click();

    await slow(page.getByRole('heading', { level: 1, name: 'Deployment Failed' })).toBeVisible({
      timeout: DEPLOY_TIMEOUT,
    });
    const advice = page.getByRole('region', { name: 'Deployment Failed' });
    await expect(advice).toContainText('edit the configuration');
    await expect(advice).toContainText('Or click Redeploy to try again without making any changes.');
    await advice.getByRole('button', { name: 'Redeploy' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Redeploy initiated' })).toBeVisible();
    // Redeploy ran a second deploy, which failed as the first: the page follows it (its App deployment
    // step links the new operation; "Deployment Failed" alone was already on screen before).
    const appId = /\/apps\/(\d+)\//.exec(page.url())?.[1] ?? '';
    const deploys = async () => {
      const list = await getJson<{
        _embedded: { operations: { id: string | number; type: string; status: string }[] };
      }>(page.request, account.token.accessToken, `/api/apps/${appId}/operations`);
      return list._embedded.operations.filter((item) => item.type === 'deploy');
    };
    await expect
      .poll(async () => (await deploys()).map((item) => item.status), { timeout: DEPLOY_TIMEOUT })
      .toEqual(['failed', 'failed']);
    const newest = Math.max(...(await deploys()).map((item) => Number(item.id)));
    const appDeployment = page
      .getByRole('list', { name: 'Deploy progress' })
      .getByRole('listitem')
      .filter({ hasText: 'App deployment' });
    await slow(appDeployment.getByRole('link', { name: `Operation ${newest}`, exact: true })).toBeVisible({
      timeout: DEPLOY_TIMEOUT,
    });
    await expect(appDeployment).toContainText('FAILED');
    await slow(page.getByRole('heading', { level: 1, name: 'Deployment Failed' })).toBeVisible();
    await page.getByRole('link', { name: 'Edit Configuration' }).click();
    await slow(page.getByRole('heading', { level: 1, name: 'Configure your App' })).toBeVisible();
  });

  test('status detection sends an app with a deploy to Configure, one without to the git page', async ({
    signedInPage: page,
    account,
    environment,
  }) => {
    test.setTimeout(90_000);
    const token = account.token.accessToken;
    const fresh = await createApp(page.request, token, environment.id, `fresh-${uniqueSuffix()}`);
    await page.goto(`/apps/${fresh.id}/get-started`);
    await slow(page).toHaveURL(new RegExp(`/apps/${fresh.id}/git$`));
    // Its Deploying page has no deploy to follow: status detection sends it on too.
    await page.goto(`/apps/${fresh.id}/deploy/status`);
    await slow(page).toHaveURL(new RegExp(`/apps/${fresh.id}/git$`));
    await slow(page.getByRole('heading', { level: 1, name: 'Deploy your Code' })).toBeVisible();
    const { appId } = await deployedService(page.request, token, environment.id, `live-${uniqueSuffix()}`);
    await page.goto(`/apps/${appId}/get-started`);
    await slow(page).toHaveURL(new RegExp(`/apps/${appId}/deploy/configure$`));
    await slow(page.getByRole('heading', { level: 1, name: 'Configure your App' })).toBeVisible();
  });

  for (const scheme of SCHEMES) {
    for (const width of [1440, 390]) {
      test(`the guided deploy's pages fit at ${width} px in ${scheme}`, async ({
        signedInPage: page,
        account,
        environment,
      }) => {
        test.setTimeout(90_000);
        await page.setViewportSize({ width, height: 900 });
        const app = await createApp(
          page.request,
          account.token.accessToken,
          environment.id,
          `fit-${uniqueSuffix()}`,
        );
        // The Deploying page follows a deploy: an app that never deployed is sent on to its git page.
        const deployed = await deployedService(
          page.request,
          account.token.accessToken,
          environment.id,
          `fitlive-${uniqueSuffix()}`,
        );
        await page.goto('/deploy');
        await inTheme(page, scheme);
        const pages: [string, string][] = [
          ['/deploy', 'Choose your Environment'],
          [`/create/deployments?environment_id=${environment.id}`, 'Name your App'],
          ['/create/deployments', 'Name your Environment'],
          [`/apps/${app.id}/git?template=rails`, 'Deploy your Code'],
          [`/apps/${app.id}/deploy/configure?template=demo`, 'Configure your App'],
          [`/apps/${deployed.appId}/deploy/status`, 'Deployed your Code'],
        ];
        for (const [path, heading] of pages) {
          await page.goto(path);
          await slow(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
          await expect(page.getByRole('list', { name: 'Deploy steps' })).toBeVisible();
          expect(await sideways(page), `${path} scrolls sideways`).toBe(0);
          await page.screenshot({
            path: test.info().outputPath(`${path.replace(/[^a-z0-9]+/gi, '-')}-${width}-${scheme}.png`),
            fullPage: true,
          });
        }
      });
    }
  }
});
