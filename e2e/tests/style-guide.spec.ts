import type { Locator, Page } from '@playwright/test';
import { mainNavigation } from '../fixtures/console.ts';
import { SCHEMES, sideways } from '../fixtures/screen.ts';
import { expect, test } from '../fixtures/test.ts';

// Issue 38, the style guide: /styles shows the UI kit's pieces in their states, at 1440 px and on a 390 px
// phone, in light and dark, with no error in the browser's console. It is reached by URL (the menu has
// no entry for it). The hover, focus and open states it shows are the kit's own rules: a button the
// pointer hovers, or the keyboard focuses, looks like the one the guide shows in that state.

const SECTIONS = [
  'Colors',
  'Typography',
  'Buttons',
  'Banners',
  'Tables',
  'Forms',
  'Logs',
  'Pills',
  'Navigation',
  'Icons',
  'Tooltips',
  'Detail boxes',
  'Secrets',
  'Boxes',
  'QR code',
  'Loading, empty and error states',
  'Confirmations',
  'Toasts',
];

/** Errors the page logs to the browser's console or throws, from now on. */
function watchErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(error.message));
  return errors;
}

type StyleProperty =
  | 'backgroundColor'
  | 'boxShadow'
  | 'outlineStyle'
  | 'outlineWidth'
  | 'outlineColor'
  | 'outlineOffset';
const style = (locator: Locator, property: StyleProperty) =>
  locator.evaluate((element, name) => getComputedStyle(element)[name], property);

/**
 * A few structural accessibility rules over the whole page (the repository has no axe): ids are unique,
 * every id reference (label for, aria-labelledby, aria-describedby, aria-controls) names an element that
 * exists, every image has a text alternative, and every button, link and form control has a name.
 */
function structuralProblems(): string[] {
  const problems: string[] = [];
  const ids = new Map<string, number>();
  for (const element of Array.from(document.querySelectorAll('[id]')))
    ids.set(element.id, (ids.get(element.id) ?? 0) + 1);
  for (const [id, count] of ids) if (count > 1) problems.push(`id "${id}" is used ${count} times`);
  const references: [string, string][] = [];
  for (const label of Array.from(document.querySelectorAll('label[for]')))
    references.push(['for', label.getAttribute('for') ?? '']);
  for (const attribute of ['aria-labelledby', 'aria-describedby', 'aria-controls']) {
    for (const element of Array.from(document.querySelectorAll(`[${attribute}]`))) {
      for (const id of (element.getAttribute(attribute) ?? '').split(/\s+/).filter(Boolean)) {
        references.push([attribute, id]);
      }
    }
  }
  for (const [attribute, id] of references) {
    if (!document.getElementById(id)) problems.push(`${attribute} names a missing element "${id}"`);
  }
  for (const image of Array.from(document.querySelectorAll('img:not([alt])')))
    problems.push(`an image has no alt: ${image.outerHTML.slice(0, 80)}`);
  const named = (element: Element) =>
    element.getAttribute('aria-label')?.trim() ||
    element.getAttribute('aria-labelledby') ||
    (element as HTMLElement).innerText?.trim() ||
    (element instanceof HTMLInputElement ||
    element instanceof HTMLSelectElement ||
    element instanceof HTMLTextAreaElement
      ? element.labels?.length
      : 0);
  for (const element of Array.from(
    document.querySelectorAll('button, a[href], input:not([type="hidden"]), select, textarea'),
  )) {
    if (!named(element)) problems.push(`no accessible name: ${element.outerHTML.slice(0, 80)}`);
  }
  return problems;
}

// The page renders every piece of the kit: on a loaded machine its first paint takes a while.
const PAGE_TIMEOUT_MS = 120_000;
const FIRST_PAINT_MS = 60_000;

/** Opens the guide (at `hash`) and waits for it. */
async function openGuide(page: Page, hash = ''): Promise<void> {
  test.setTimeout(PAGE_TIMEOUT_MS);
  await page.goto(`/styles${hash}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Style guide' })).toBeVisible({
    timeout: FIRST_PAINT_MS,
  });
}

/** The section headed `title`. */
const section = (page: Page, title: string) => page.getByRole('region', { name: title, exact: true });

for (const scheme of SCHEMES) {
  for (const width of [1440, 390]) {
    test(`the style guide at ${width} px in ${scheme}`, async ({ signedInPage: page }) => {
      const errors = watchErrors(page);
      await page.setViewportSize({ width, height: 900 });
      await openGuide(page);
      await expect(mainNavigation(page).getByRole('link', { name: /style/i })).toHaveCount(0);

      // The page's own theme choice sets the console's theme.
      const theme = page.getByRole('group', { name: 'Theme' });
      await theme.getByRole('radio', { name: scheme === 'dark' ? 'Dark' : 'Light' }).check();
      await expect(page.locator('html')).toHaveAttribute('data-theme', scheme);

      const index = page.getByRole('navigation', { name: 'Style guide sections' });
      for (const title of SECTIONS) {
        await expect(page.getByRole('heading', { level: 2, name: title, exact: true })).toBeVisible();
        await expect(index.getByRole('link', { name: title, exact: true })).toBeVisible();
      }
      // The colours are read from the stylesheet in force.
      const colors = section(page, 'Colors');
      await expect(colors.getByText('--color-bg', { exact: true })).toBeVisible();
      await expect(colors.locator('.swatch-value').first()).toHaveText(/\S/);

      // Shown open, as on hover: the tooltips; drawn in the browser: the QR code.
      await expect(
        section(page, 'Tooltips').getByRole('tooltip', { name: 'A tooltip on top' }),
      ).toBeVisible();
      const qr = section(page, 'QR code').getByRole('img', { name: 'Sample QR code' });
      await expect(qr).toBeVisible();
      expect(await qr.evaluate((image: HTMLImageElement) => image.naturalWidth)).toBeGreaterThan(0);
      await expect(section(page, 'Logs').getByRole('log', { name: 'Sample operation logs' })).toContainText(
        'ERROR: health check failed',
      );

      // An index link leads to its section.
      await index.getByRole('link', { name: 'Toasts', exact: true }).click();
      await expect(page).toHaveURL(/\/styles#toasts$/);
      await expect(page.getByRole('heading', { level: 2, name: 'Toasts' })).toBeInViewport();

      expect(await page.evaluate(structuralProblems), 'structural accessibility problems').toEqual([]);
      expect(await sideways(page), 'the page scrolls sideways').toBeLessThanOrEqual(0);
      expect(errors, 'errors in the browser console').toEqual([]);
    });
  }
}

test('the hover and focus states shown are the ones the pointer and the keyboard cause', async ({
  signedInPage: page,
}) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await openGuide(page, '#buttons');
  const buttons = section(page, 'Buttons');
  for (const variant of ['primary', 'secondary', 'ghost', 'danger']) {
    const specimen = buttons.getByRole('figure', {
      name: `${variant}: default, hover, focus, disabled, loading`,
    });
    const live = specimen.getByRole('button', { name: 'Default' });
    const shownHovered = specimen.getByRole('button', { name: 'Hover' });
    const shownFocused = specimen.getByRole('button', { name: 'Focus' });

    await live.hover();
    await expect
      .poll(() => style(live, 'backgroundColor'))
      .toBe(await style(shownHovered, 'backgroundColor'));
    await page.mouse.move(0, 0);

    // Reached by the keyboard: the focus ring (issue 41: a 2 px outline, offset from the button, in the
    // focus colour of at least 3:1 on every background), as the guide's Focus specimen shows it.
    await live.focus();
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Tab');
    await expect(live).toBeFocused();
    expect(await style(live, 'outlineStyle'), `${variant} focus ring`).toBe('solid');
    for (const property of ['outlineWidth', 'outlineColor', 'outlineOffset'] as const) {
      expect(await style(live, property), `${variant} ${property}`).toBe(await style(shownFocused, property));
    }
  }
});

test('the confirmations and toasts work and change nothing', async ({ signedInPage: page }) => {
  await openGuide(page, '#confirmations');
  const confirmations = section(page, 'Confirmations');
  await confirmations.getByRole('button', { name: 'Remove the sample row', exact: true }).click();
  await confirmations.getByRole('button', { name: 'Confirm remove' }).click();
  const removed = page.locator('.toast').filter({ hasText: 'Removed: the style guide changes nothing.' });
  await expect(removed.getByRole('status')).toBeVisible();
  await removed.getByRole('button', { name: 'Dismiss notification' }).click();
  await expect(removed).toHaveCount(0);

  const typed = confirmations.getByRole('region', { name: 'Deprovision sample-app' });
  const deprovision = typed.getByRole('button', { name: 'Deprovision' });
  await expect(deprovision).toBeDisabled();
  await typed.getByLabel('Type sample-app to confirm').fill('sample-app');
  await deprovision.click();
  await expect(
    page.getByRole('status').filter({ hasText: 'Deprovisioned: the style guide changes nothing.' }),
  ).toBeVisible();

  await section(page, 'Toasts').getByRole('button', { name: 'Show an error toast' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'This is an error toast.' })).toBeVisible();
});
