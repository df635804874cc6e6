import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { createProvisionedDatabase } from '../fixtures/databases.ts';
import { passwordField } from '../fixtures/console.ts';
import { deployedService } from '../fixtures/operations.ts';
import { SCHEMES, type Scheme } from '../fixtures/screen.ts';
import { expect, test } from '../fixtures/test.ts';

// Issue 41: axe-core on the console's main pages, light and dark, signed out and in. A serious or
// critical violation of WCAG 2.0/2.1 A and AA fails the walk; every page is checked before it fails,
// so one run names them all. WCAG 2.5.3 (the accessible name contains the visible label) is one of
// axe's experimental rules: it is switched on here too.

const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];
const FAILING_IMPACTS = new Set(['serious', 'critical']);

/** The theme before the console's first script runs (spec 1 §3: the `theme` key, stored raw). */
async function useScheme(page: Page, scheme: Scheme): Promise<void> {
  await page.addInitScript((value) => window.localStorage.setItem('theme', value), scheme);
}

/** axe's serious and critical findings on the page as it stands, one line each. */
async function seriousViolations(page: Page, where: string): Promise<string[]> {
  const results = await new AxeBuilder({ page })
    .withTags(WCAG_TAGS)
    .options({ rules: { 'label-content-name-mismatch': { enabled: true } } })
    .analyze();
  return results.violations
    .filter((violation) => FAILING_IMPACTS.has(violation.impact ?? ''))
    .flatMap((violation) =>
      violation.nodes.map(
        (node) =>
          `${where}: ${violation.id} (${violation.impact}) at ${node.target.join(' ')}: ${node.failureSummary?.replace(/\s+/g, ' ')}`,
      ),
    );
}

for (const scheme of SCHEMES) {
  test.describe(`${scheme} theme`, () => {
    test('the signed-out pages have no serious or critical axe violation', async ({ page }) => {
      await useScheme(page, scheme);
      const found: string[] = [];
      for (const [path, heading] of [
        ['/login', 'Log In'],
        ['/signup', /Sign Up|Create your account/i],
        ['/forgot-password', /password/i],
      ] as const) {
        await page.goto(path);
        await expect(page.getByRole('heading', { level: 1 }).first()).toContainText(heading);
        await expect(page.locator('html')).toHaveAttribute('data-theme', scheme);
        found.push(...(await seriousViolations(page, path)));
      }
      expect(found).toEqual([]);
    });

    test('the signed-in main pages have no serious or critical axe violation', async ({
      signedInPage: page,
      account,
      environment,
      request,
    }) => {
      test.setTimeout(240_000);
      const token = account.token.accessToken;
      const { appId, serviceId } = await deployedService(request, token, environment.id, `web-${scheme}`);
      const databaseId = await createProvisionedDatabase(request, account, environment, `db-${scheme}`);
      const operations = await request.get(`/api/apps/${appId}/operations`, {
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/hal+json' },
      });
      const operationId = String(
        ((await operations.json()) as { _embedded: { operations: { id: string | number }[] } })._embedded
          .operations[0]?.id,
      );
      await useScheme(page, scheme);

      const pages: [string, string | RegExp][] = [
        ['/', /.+/],
        ['/apps', 'Apps'],
        [`/apps/${appId}`, `web-${scheme}`],
        [`/apps/${appId}/config`, `web-${scheme}`],
        [`/apps/${appId}/services/${serviceId}`, /.+/],
        ['/environments', 'Environments'],
        [`/environments/${environment.id}`, environment.handle],
        ['/services', 'Services'],
        ['/databases', 'Databases'],
        [`/databases/${databaseId}`, `db-${scheme}`],
        ['/activity', 'Activity'],
        [`/operations/${operationId}`, `Operation ${operationId}`],
        ['/settings/profile', 'Profile'],
        ['/settings/team/members', 'Members'],
        ['/settings/team/roles', 'Roles'],
        ['/plans', 'Plans'],
        ['/billing', 'Add payment information'],
      ];
      const found: string[] = [];
      for (const [path, heading] of pages) {
        await page.goto(path);
        await expect(page.getByRole('heading', { level: 1 })).toContainText(heading);
        await expect(page.locator('html')).toHaveAttribute('data-theme', scheme);
        // The lists and details are in (no skeleton or spinner left) before axe looks.
        await expect(page.locator('[aria-busy="true"], .skeleton')).toHaveCount(0);
        found.push(...(await seriousViolations(page, path)));
      }

      // Security asks for the password first (an elevated token, kept in memory: no reload after it).
      await page.goto('/settings/security');
      await expect(page.getByRole('heading', { name: 'Confirm your identity' })).toBeVisible();
      found.push(...(await seriousViolations(page, '/elevate')));
      await passwordField(page).fill(account.password);
      await page.getByRole('button', { name: 'Confirm' }).click();
      await expect(page.getByRole('heading', { level: 1, name: 'Security Settings' })).toBeVisible();
      await expect(page.getByRole('table', { name: 'Your sessions' })).toBeVisible();
      found.push(...(await seriousViolations(page, '/settings/security')));

      expect(found).toEqual([]);
    });
  });
}
