import { createAccountEnvironment } from '../fixtures/accounts.ts';
import { inTheme, SCHEMES, sideways } from '../fixtures/screen.ts';
import { expect, test } from '../fixtures/test.ts';

// Issue 20, phone and wide screens: on a 390 px phone the menu opens as a drawer over the page (which
// keeps its width) and closes on navigation; wide tables scroll inside their cards, so no page scrolls
// sideways, at 390 px and at 1440 px, in light and dark.

for (const scheme of SCHEMES) {
  test.describe(`${scheme} theme`, () => {
    test('at 390 px the menu is a drawer over the page that closes on navigation', async ({
      signedInPage: page,
    }) => {
      await page.setViewportSize({ width: 390, height: 844 });
      await page.goto('/apps');
      const main = page.getByRole('main');
      await expect(page.getByRole('heading', { level: 1, name: 'Apps' })).toBeVisible();
      await inTheme(page, scheme);
      const before = await main.boundingBox();
      await page.getByRole('button', { name: 'Expand sidebar' }).click();
      const sidebar = page.getByRole('complementary', { name: 'Sidebar' });
      await expect(sidebar).toHaveAttribute('data-overlay', 'true');
      // The page under the drawer keeps its place and width.
      const under = await main.boundingBox();
      expect({ x: under?.x, width: under?.width }).toEqual({ x: before?.x, width: before?.width });
      expect(before?.width ?? 0).toBeGreaterThan(300);
      await sidebar.getByRole('link', { name: 'Environments' }).click();
      await expect(page).toHaveURL(/\/environments$/);
      await expect(sidebar).not.toHaveAttribute('data-overlay', 'true');
      await expect(page.getByRole('button', { name: 'Expand sidebar' })).toBeVisible();
    });

    for (const width of [390, 1440]) {
      test(`no page scrolls sideways at ${width} px: activity, apps, the role matrix`, async ({
        signedInPage: page,
        account,
        request,
      }) => {
        const environment = await createAccountEnvironment(request, account, `wide-${scheme}-${width}`);
        await page.setViewportSize({ width, height: 900 });
        await page.goto('/apps');
        await inTheme(page, scheme);
        for (const path of ['/activity', '/apps', `/settings/team/roles?environment_id=${environment.id}`]) {
          await page.goto(path);
          await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
          await expect(page.getByRole('table').first()).toBeVisible();
          expect(await sideways(page), path).toBeLessThanOrEqual(0);
        }
      });
    }
  });
}
