import type { Locator, Page } from '@playwright/test';
import { logIn } from '../fixtures/accounts.ts';
import { passwordField, sidebar } from '../fixtures/console.ts';
import { deployedService } from '../fixtures/operations.ts';
import { inTheme, SCHEMES } from '../fixtures/screen.ts';
import { expect, test } from '../fixtures/test.ts';

// Issue 41, "Keyboard, screen readers, contrast": a visible focus ring on every button, page titles,
// inline panels and confirmations driven by the keyboard, names that contain the visible label,
// readable muted text in both themes, and a Sessions table that fits its card.

/** WCAG 2.x contrast ratio of two `rgb(r, g, b)` colours. */
function contrast(first: string, second: string): number {
  const luminance = (color: string) => {
    const [r = 0, g = 0, b = 0] = (color.match(/\d+(\.\d+)?/g) ?? []).slice(0, 3).map(Number);
    const [lr, lg, lb] = [r, g, b].map((value) => {
      const channel = value / 255;
      return channel <= 0.03928 ? channel / 12.92 : ((channel + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * (lr ?? 0) + 0.7152 * (lg ?? 0) + 0.0722 * (lb ?? 0);
  };
  const [high, low] = [luminance(first), luminance(second)].sort((a, b) => b - a);
  return ((high ?? 0) + 0.05) / ((low ?? 0) + 0.05);
}

/** A CSS custom property of the page's root as the browser resolves it, as `rgb(...)`. */
function resolvedColor(page: Page, property: string): Promise<string> {
  return page.evaluate((name) => {
    const probe = document.createElement('span');
    probe.style.color = `var(${name})`;
    document.body.append(probe);
    const color = getComputedStyle(probe).color;
    probe.remove();
    return color;
  }, property);
}

/** Presses Tab until `target` has focus (it is in the Tab order), at most `limit` times. */
async function tabTo(page: Page, target: Locator, limit = 60): Promise<void> {
  for (let presses = 0; presses < limit; presses += 1) {
    await page.keyboard.press('Tab');
    if (await target.evaluate((element) => element === document.activeElement)) return;
  }
  throw new Error(`Tab never reached ${target}`);
}

interface Ring {
  outline: string;
  outlineColor: string;
  boxShadow: string;
}

const ringOf = (target: Locator): Promise<Ring> =>
  target.evaluate((element) => {
    const style = getComputedStyle(element);
    return {
      outline: `${style.outlineStyle} ${style.outlineWidth}`,
      outlineColor: style.outlineColor,
      boxShadow: style.boxShadow,
    };
  });

for (const scheme of SCHEMES) {
  test.describe(`${scheme} theme`, () => {
    test('a focused button shows a ring of at least 3:1 that an unfocused one has not', async ({
      signedInPage: page,
      app,
    }) => {
      await page.goto(`/apps/${app.id}`);
      await expect(page.getByRole('heading', { level: 1, name: app.handle })).toBeVisible();
      await inTheme(page, scheme);
      const deploy = page.getByRole('main').getByRole('button', { name: 'Deploy', exact: true });
      const unfocused = await ringOf(deploy);
      expect(unfocused.outline).toMatch(/^none /);

      // Tab reaches the primary button, and its ring shows.
      await tabTo(page, deploy);
      const focused = await ringOf(deploy);
      expect(focused.outline).toBe('solid 2px');
      expect(focused).not.toEqual(unfocused);
      const pageBackground = await resolvedColor(page, '--color-bg');
      expect(contrast(focused.outlineColor, pageBackground)).toBeGreaterThanOrEqual(3);
      // A secondary button (the app's tabs lead to Settings, whose buttons are secondary).
      await page
        .getByRole('navigation', { name: 'App tabs' })
        .getByRole('link', { name: 'Settings' })
        .click();
      const secondary = page.getByRole('main').locator('.button-secondary').first();
      await expect(secondary).toBeVisible();
      const before = await ringOf(secondary);
      await page.keyboard.press('Shift+Tab');
      await tabTo(page, secondary);
      const after = await ringOf(secondary);
      expect(after.outline).toBe('solid 2px');
      expect(after).not.toEqual(before);
      expect(
        contrast(after.outlineColor, await resolvedColor(page, '--color-surface')),
      ).toBeGreaterThanOrEqual(3);

      // The sidebar is dark in both themes: its links' ring is light enough there.
      const appsLink = sidebar(page).getByRole('link', { name: 'Apps', exact: true });
      await appsLink.focus();
      const navRing = await ringOf(appsLink);
      expect(navRing.outline).toBe('solid 2px');
      expect(
        contrast(navRing.outlineColor, await resolvedColor(page, '--color-sidebar-bg')),
      ).toBeGreaterThanOrEqual(3);
    });

    test('secondary and muted text reach 4.5:1 on the backgrounds they sit on', async ({
      signedInPage: page,
    }) => {
      await page.goto('/apps');
      await expect(page.getByRole('heading', { level: 1, name: 'Apps' })).toBeVisible();
      await inTheme(page, scheme);
      const subtle = await resolvedColor(page, '--color-text-subtle');
      for (const background of [
        '--color-surface',
        '--color-bg',
        '--color-surface-muted',
        '--color-surface-hover',
      ]) {
        expect(contrast(subtle, await resolvedColor(page, background)), background).toBeGreaterThanOrEqual(
          4.5,
        );
      }
      const sidebarMuted = await resolvedColor(page, '--color-sidebar-muted');
      expect(contrast(sidebarMuted, await resolvedColor(page, '--color-sidebar-bg'))).toBeGreaterThanOrEqual(
        4.5,
      );
      // #171f33: the sidebar under a hovered row.
      expect(contrast(sidebarMuted, 'rgb(23, 31, 51)')).toBeGreaterThanOrEqual(4.5);
      // The sidebar's secondary lines use that colour, as rendered.
      const stackLine = sidebar(page).locator('.org-stack').first();
      if ((await stackLine.count()) > 0) {
        expect(await stackLine.evaluate((element) => getComputedStyle(element).color)).toBe(sidebarMuted);
      }
    });
  });
}

test.describe('page titles', () => {
  test('the tab names the page and the resource: "web · Apps · Berth"', async ({
    signedInPage: page,
    app,
    environment,
  }) => {
    await page.goto('/apps');
    await expect(page).toHaveTitle('Apps · Berth');
    await page.goto(`/apps/${app.id}`);
    await expect(page.getByRole('heading', { level: 1, name: app.handle })).toBeVisible();
    await expect(page).toHaveTitle(`${app.handle} · Apps · Berth`);
    // The title follows the console's own navigation, not only full loads.
    await sidebar(page).getByRole('link', { name: 'Environments', exact: true }).click();
    await expect(page).toHaveTitle('Environments · Berth');
    await page.getByRole('main').getByRole('link', { name: environment.handle, exact: true }).click();
    await expect(page).toHaveTitle(`${environment.handle} · Environments · Berth`);
    await page.goto('/settings/team/members');
    await expect(page).toHaveTitle('Members · Settings · Berth');
    await page.goto('/databases');
    await expect(page).toHaveTitle('Databases · Berth');
    await page.goto('/no/such/page');
    await expect(page).toHaveTitle('Page Not Found · Berth');
  });

  test('signed out: "Log In · Berth" and "Sign Up · Berth"', async ({ page }) => {
    await page.goto('/login');
    await expect(page).toHaveTitle('Log In · Berth');
    await page.goto('/signup');
    await expect(page).toHaveTitle('Sign Up · Berth');
  });
});

test.describe('panels and confirmations by keyboard', () => {
  test('Deploy opens with focus in its form, Escape closes it and focus goes back to Deploy', async ({
    signedInPage: page,
    app,
  }) => {
    await page.goto(`/apps/${app.id}`);
    const deploy = page.getByRole('main').getByRole('button', { name: 'Deploy', exact: true });
    await deploy.focus();
    await page.keyboard.press('Enter');
    const gitRef = page.getByRole('textbox', { name: 'Git Ref' });
    await expect(gitRef).toBeFocused();
    await expect(deploy).toHaveAttribute('aria-expanded', 'true');
    await page.keyboard.press('Escape');
    await expect(gitRef).toHaveCount(0);
    await expect(deploy).toBeFocused();
    await expect(deploy).toHaveAttribute('aria-expanded', 'false');
  });

  test('Restart Service is named with its label, and Escape cancels its confirmation', async ({
    signedInPage: page,
    account,
    environment,
    request,
  }) => {
    const { appId, serviceId } = await deployedService(
      request,
      account.token.accessToken,
      environment.id,
      'restarted',
    );
    await page.goto(`/apps/${appId}/services/${serviceId}/settings`);
    // WCAG 2.5.3: the name a screen reader says contains what the button shows (the header's button).
    const restart = page.locator('header.page-header').getByRole('button', { name: /^Restart Service/ });
    await expect(restart).toHaveText('Restart Service');
    await expect(restart).toHaveAccessibleName(/^Restart Service/);
    await restart.focus();
    await page.keyboard.press('Enter');
    const confirm = page.getByRole('button', { name: /^Confirm restart of / });
    await expect(confirm).toBeFocused();
    await page.keyboard.press('Escape');
    await expect(confirm).toHaveCount(0);
    await expect(restart).toBeFocused();
  });

  test('Edit Policy opens with focus in its form, Escape closes it and focus goes back', async ({
    signedInPage: page,
    environment,
  }) => {
    await page.goto(`/environments/${environment.id}/backups`);
    const edit = page.getByRole('button', { name: 'Edit Policy' });
    await edit.focus();
    await page.keyboard.press('Enter');
    const form = page.getByRole('region', { name: 'Retention policy' });
    await expect(form.locator('input').first()).toBeFocused();
    await page.keyboard.press('Escape');
    await expect(page.getByRole('button', { name: 'Edit Policy' })).toBeFocused();
  });
});

test.describe('text, headings and the Sessions table', () => {
  test('links inside sentences are underlined', async ({ signedInPage: page, app, environment }) => {
    await page.goto(`/apps/${app.id}`);
    const inSentence = page.locator('.page-description').getByRole('link', { name: environment.handle });
    await expect(inSentence).toBeVisible();
    expect(await inSentence.evaluate((element) => getComputedStyle(element).textDecorationLine)).toBe(
      'underline',
    );
  });

  test('headings go down one level at a time', async ({ signedInPage: page, app, environment }) => {
    test.setTimeout(240_000);
    for (const path of [
      '/apps',
      `/apps/${app.id}`,
      `/environments/${environment.id}`,
      '/settings/team/roles',
      '/plans',
      '/settings/profile',
    ]) {
      await page.goto(path);
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      await expect(page.locator('[aria-busy="true"], .skeleton')).toHaveCount(0);
      const levels = await page
        .locator('h1, h2, h3, h4, h5, h6')
        .evaluateAll((headings) => headings.map((heading) => Number(heading.tagName.slice(1))));
      const skips = levels.filter((level, index) => index > 0 && level > (levels[index - 1] ?? 0) + 1);
      expect(skips, `${path}: ${levels.join(' ')}`).toEqual([]);
    }
  });

  test('the Sessions table fits its card, Revoke buttons inside; on a phone it scrolls by keyboard', async ({
    signedInPage: page,
    account,
    request,
  }) => {
    test.setTimeout(180_000);
    // A second session, so a Revoke button is listed.
    await logIn(request, account);
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.goto('/settings/security');
    await passwordField(page).fill(account.password);
    await page.getByRole('button', { name: 'Confirm' }).click();
    const table = page.getByRole('table', { name: 'Your sessions' });
    await expect(table).toBeVisible();
    const card = page.locator('section', { has: page.getByRole('heading', { name: 'Sessions' }) });
    const cardBox = await card.boundingBox();
    const tableBox = await table.boundingBox();
    expect(cardBox && tableBox).toBeTruthy();
    if (!cardBox || !tableBox) return;
    expect(tableBox.x + tableBox.width).toBeLessThanOrEqual(cardBox.x + cardBox.width);
    const revoke = table.getByRole('button', { name: /^Revoke session / }).first();
    const revokeBox = await revoke.boundingBox();
    expect(revokeBox).toBeTruthy();
    expect((revokeBox?.x ?? 0) + (revokeBox?.width ?? 0)).toBeLessThanOrEqual(cardBox.x + cardBox.width);
    // Nothing scrolls inside the card at this width.
    const wrap = table.locator('xpath=..');
    expect(await wrap.evaluate((element) => element.scrollWidth - element.clientWidth)).toBeLessThanOrEqual(
      1,
    );
    await expect(wrap).not.toHaveAttribute('tabindex', '0');

    // On a phone the table scrolls inside its card: the scroll box is then a named stop in the Tab order.
    await page.setViewportSize({ width: 390, height: 844 });
    const region = page.getByRole('region', { name: 'Your sessions' });
    await expect(region).toHaveAttribute('tabindex', '0');
    await region.focus();
    await page.keyboard.press('ArrowRight');
    await expect.poll(() => region.evaluate((element) => element.scrollLeft)).toBeGreaterThan(0);
  });
});
