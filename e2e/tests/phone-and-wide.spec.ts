import type { Locator, Page } from '@playwright/test';
import { createAccountEnvironment } from '../fixtures/accounts.ts';
import { uniqueSuffix } from '../fixtures/emails.ts';
import { createApp, deployedService } from '../fixtures/operations.ts';
import { inTheme, overflowWidth, SCHEMES } from '../fixtures/screen.ts';
import { createRoleWithScopes } from '../fixtures/team.ts';
import { expect, test } from '../fixtures/test.ts';

// Issues 20 and 41, phone and wide screens. On a 390 px phone no rail of icons takes the page's side: a
// Menu button opens the menu as a drawer that holds the focus until Escape (or a link) closes it, and the
// key tables (Apps, Activity, the role matrix) show each row as a card where every column's value stands
// beside its column's name. At 1440 px the tables stay tables. No page scrolls sideways, in light and dark.

const PHONE = { width: 390, height: 844 };
const WIDE = { width: 1440, height: 900 };

/** The label a phone card shows before a cell's value (its `::before` content), or null when none shows. */
function shownLabel(cell: Locator): Promise<string | null> {
  return cell.evaluate((element) => {
    const content = getComputedStyle(element, '::before').content;
    return content === 'none' || content === 'normal' ? null : content.replace(/^"|"$/g, '');
  });
}

/** The cell of `row` under the column named `label`. */
const cellOf = (row: Locator, label: string) => row.locator(`td[data-label="${label}"]`);

/** The cell's box lies inside the window (so nothing of it is cut off or off to the side). */
async function expectInsideWindow(page: Page, cell: Locator): Promise<void> {
  await expect(cell).toBeVisible();
  const box = await cell.boundingBox();
  const width = page.viewportSize()?.width ?? 0;
  expect(box?.x ?? -1).toBeGreaterThanOrEqual(0);
  expect((box?.x ?? 0) + (box?.width ?? Number.POSITIVE_INFINITY)).toBeLessThanOrEqual(width);
}

for (const scheme of SCHEMES) {
  test.describe(`${scheme} theme`, () => {
    test('at 390 px a Menu button opens the drawer, which holds the focus, closes on Escape and navigates', async ({
      signedInPage: page,
    }) => {
      await page.setViewportSize(PHONE);
      await page.goto('/apps');
      await expect(page.getByRole('heading', { level: 1, name: 'Apps' })).toBeVisible();
      await inTheme(page, scheme);
      const sidebar = page.getByRole('complementary', { name: 'Sidebar' });
      // No rail: the page starts at the window's left edge and takes its whole width.
      await expect(sidebar).toHaveCount(0);
      const main = await page.getByRole('main').boundingBox();
      expect({ x: main?.x, width: main?.width }).toEqual({ x: 0, width: PHONE.width });
      expect(await overflowWidth(page)).toBeLessThanOrEqual(0);

      const menu = page.getByRole('button', { name: 'Menu', exact: true });
      await expect(menu).toHaveAttribute('aria-expanded', 'false');
      await menu.focus();
      await page.keyboard.press('Enter');
      await expect(sidebar).toHaveAttribute('data-overlay', 'true');
      await expect(menu).toHaveAttribute('aria-expanded', 'true');
      const close = sidebar.getByRole('button', { name: 'Close menu' });
      await expect(close).toBeFocused();
      // Tab goes round the drawer's controls and never reaches the page under it, both ways.
      for (let step = 0; step < 25; step += 1) {
        await page.keyboard.press('Tab');
        expect(await sidebar.evaluate((element) => element.contains(document.activeElement))).toBe(true);
      }
      for (let step = 0; step < 5; step += 1) {
        await page.keyboard.press('Shift+Tab');
        expect(await sidebar.evaluate((element) => element.contains(document.activeElement))).toBe(true);
      }
      await page.keyboard.press('Escape');
      await expect(sidebar).toHaveCount(0);
      await expect(menu).toBeFocused();

      // A link in the drawer goes to its page and the drawer closes.
      await menu.click();
      await sidebar.getByRole('link', { name: 'Environments' }).click();
      await expect(page).toHaveURL(/\/environments$/);
      await expect(page.getByRole('heading', { level: 1, name: 'Environments' })).toBeVisible();
      await expect(sidebar).toHaveCount(0);
      await expect(menu).toHaveAttribute('aria-expanded', 'false');
    });

    for (const size of [PHONE, WIDE]) {
      const phone = size.width === PHONE.width;
      test(`at ${size.width} px the apps, activity and role matrix fit the window, ${phone ? 'as labelled cards' : 'as tables'}`, async ({
        signedInPage: page,
        account,
        request,
      }) => {
        test.setTimeout(120_000);
        const token = account.token.accessToken;
        const environment = await createAccountEnvironment(
          request,
          account,
          `cards-${scheme}-${size.width}-${uniqueSuffix()}`,
        );
        // A deployed app has containers, so its estimate is more than nothing.
        const { appId } = await deployedService(request, token, environment.id, 'shop');
        const role = await createRoleWithScopes(request, account, {
          name: `Deployers ${uniqueSuffix()}`,
          environment,
          scopes: ['deploy'],
        });
        await page.setViewportSize(size);
        await page.goto('/apps');
        await inTheme(page, scheme);

        // Apps: the app's Environment and Est. Monthly Cost, each beside its name on a phone.
        const apps = page.getByRole('table', { name: 'Apps' });
        const appRow = apps.getByRole('row').filter({ has: page.locator(`a[href="/apps/${appId}"]`) });
        await expect(cellOf(appRow, 'Environment')).toHaveText(environment.handle);
        await expect(cellOf(appRow, 'Est. Monthly Cost')).toHaveText(/^\$\d[\d,]*\.\d\d$/);
        await expect(cellOf(appRow, 'Est. Monthly Cost')).not.toHaveText('$0.00');
        for (const label of ['Handle', 'ID', 'Environment', 'Services', 'Est. Monthly Cost']) {
          const cell = cellOf(appRow, label);
          if (phone) {
            await expectInsideWindow(page, cell);
            expect(await shownLabel(cell)).toBe(label);
          } else {
            // Wide, the row is a table row as before: the names are the column headers.
            await expect(cell).toHaveCSS('display', 'table-cell');
            expect(await shownLabel(cell)).toBeNull();
            await expect(apps.getByRole('columnheader', { name: label })).toBeVisible();
          }
        }
        expect(await overflowWidth(page), '/apps').toBeLessThanOrEqual(0);

        // Activity: the deploy's row, every value labelled on a phone.
        await page.goto('/activity');
        await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
        const activity = page.getByRole('table').first();
        const deployRow = activity
          .getByRole('row')
          .filter({ has: page.getByRole('link', { name: 'deploy', exact: true }) })
          .first();
        await expect(deployRow).toBeVisible();
        for (const label of ['Type', 'Status', 'Resource', 'User', 'Time']) {
          const cell = cellOf(deployRow, label);
          if (phone) {
            await expectInsideWindow(page, cell);
            expect(await shownLabel(cell)).toBe(label);
          } else {
            await expect(cell).toHaveCSS('display', 'table-cell');
          }
        }
        expect(await overflowWidth(page), '/activity').toBeLessThanOrEqual(0);

        // The role matrix: all eight scopes of the environment, not two of eight.
        await page.goto(`/roles/${role.id}/environments`);
        const matrix = page.getByRole('table', { name: `Environment permissions of ${role.name}` });
        const environmentRow = matrix.getByRole('row').filter({ hasText: environment.handle });
        const boxes = environmentRow.getByRole('checkbox');
        await expect(boxes).toHaveCount(8);
        for (const box of await boxes.all()) {
          const cell = box.locator('xpath=ancestor::td[1]');
          if (phone) {
            await expectInsideWindow(page, cell);
            expect(await shownLabel(cell)).toBe(await cell.getAttribute('data-label'));
          } else {
            await expect(box).toBeVisible();
          }
        }
        // Deployment is granted: its box is checked, on a phone and wide alike.
        await expect(
          environmentRow.getByRole('checkbox', { name: `Deployment on ${environment.handle}` }),
        ).toBeChecked();
        expect(await overflowWidth(page), 'role matrix').toBeLessThanOrEqual(0);
      });
    }
  });
}

test('at 390 px a list of more than a hundred apps is still virtualized, as cards', async ({
  signedInPage: page,
  account,
  request,
}) => {
  test.setTimeout(180_000);
  const token = account.token.accessToken;
  const environment = await createAccountEnvironment(request, account, `many-cards-${uniqueSuffix()}`);
  const handles = Array.from({ length: 120 }, (_, index) => `card-${String(index).padStart(3, '0')}`);
  for (let start = 0; start < handles.length; start += 10) {
    await Promise.all(
      handles.slice(start, start + 10).map((handle) => createApp(request, token, environment.id, handle)),
    );
  }
  await page.setViewportSize(PHONE);
  await page.goto('/apps?rows=500&sort=handle');
  const apps = page.getByRole('table', { name: 'Apps' });
  await expect(apps).toHaveAttribute('aria-rowcount', '121');
  await expect(apps.getByRole('link', { name: 'card-000', exact: true })).toBeVisible();
  // Only the cards in view (and a few more) are in the page.
  expect(await apps.locator('tbody tr[data-index]').count()).toBeLessThan(60);
  expect(await shownLabel(cellOf(apps.getByRole('row').nth(1), 'Environment'))).toBe('Environment');
  // Scrolled to its end, the list shows its last card, measured at its real height.
  const scroller = page.locator('.table-scroll');
  await expect(async () => {
    await scroller.evaluate((element) => element.scrollTo(0, element.scrollHeight));
    await expect(apps.getByRole('link', { name: 'card-119', exact: true })).toBeVisible({ timeout: 1000 });
  }).toPass({ timeout: 20_000 });
  expect(await overflowWidth(page)).toBeLessThanOrEqual(0);
});
