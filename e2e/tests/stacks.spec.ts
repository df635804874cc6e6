import { inTheme, SCHEMES, sideways } from '../fixtures/screen.ts';
import { expect, test } from '../fixtures/test.ts';

// spec 2 §2 Stacks: the list (tenancy, environments, cost, total row, New Dedicated Stack), the detail with
// its fields and tabs, the deprovision request rules, and the dedicated stack request form (spec 2 §5).
test.describe('stacks', () => {
  test('lists the default shared stack and opens it', async ({ signedInPage: page }) => {
    await page.goto('/stacks');
    await expect(page.getByRole('heading', { name: 'Stacks', exact: true })).toBeVisible();
    const table = page.getByRole('table', { name: 'Stacks' });
    const row = table.getByRole('row', { name: /shared-us-west-1/ });
    await expect(row).toBeVisible();
    await expect(row.getByRole('cell').nth(2)).toHaveText('Shared (Simulated)');
    await expect(row.getByRole('cell').nth(3)).toHaveText('us-west-1');
    await expect(row.getByRole('cell').nth(5)).toHaveText('$0.00');
    await expect(page.getByRole('status', { name: 'Total Est. Monthly Cost' })).toHaveText(
      'Total Est. Monthly Cost$0.00',
    );

    await row.getByRole('link', { name: 'shared-us-west-1' }).click();
    await expect(page).toHaveURL(/\/stacks\/\d+\/environments$/);
    await expect(page.getByRole('heading', { name: 'shared-us-west-1' })).toBeVisible();
    const details = page.getByRole('region', { name: 'Stack details' });
    await expect(details).toContainText('Tenancy');
    await expect(details).toContainText('Shared (Simulated)');
    // Issue 35: what a simulated stack is, in one sentence beside the badge.
    await expect(page.getByRole('note', { name: 'Simulated' })).toHaveText(
      "SimulatedThis stack runs on Berth's simulator: its apps and databases run no code, and their operations change nothing outside Berth.",
    );
    await expect(details).toContainText('Regionus-west-1');
    await expect(details).toContainText('Est. Monthly Cost$0.00');
    await expect(page.getByRole('table', { name: 'Environments' })).toBeVisible();

    const sections = page.getByRole('navigation', { name: 'Stack sections' });
    await expect(sections.getByRole('link', { name: 'Managed HIDS' })).toHaveCount(0);
    await sections.getByRole('link', { name: 'VPN Tunnels' }).click();
    await expect(page).toHaveURL(/\/vpn-tunnels$/);
    // Tunnels and peering are set up through support (support.spec.ts follows the prefilled ticket).
    await expect(page.getByRole('heading', { name: 'No resources found' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Request a VPN Tunnel' })).toBeVisible();
    await sections.getByRole('link', { name: 'VPC Peering' }).click();
    await expect(page.getByRole('heading', { name: 'No resources found' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Request VPC Peering' })).toBeVisible();
    await sections.getByRole('link', { name: 'Settings' }).click();
    await expect(page.getByText(/Shared stacks cannot be deprovisioned/)).toBeVisible();
    await expect(page.getByRole('button', { name: 'Request Deprovision' })).toHaveCount(0);
  });

  // Issue 38: the stack's tabs (VPN Tunnels and VPC Peering with their support requests, HIDS's message) at 1440 and 390 px,
  // light and dark, within the window.
  test('its VPN Tunnels, VPC Peering and HIDS tabs fit 1440 and 390 px, light and dark', async ({
    signedInPage: page,
  }, testInfo) => {
    test.setTimeout(120_000);
    await page.goto('/stacks');
    await page.getByRole('table', { name: 'Stacks' }).getByRole('link', { name: 'shared-us-west-1' }).click();
    await expect(page).toHaveURL(/\/stacks\/\d+\/environments$/);
    const stackPath = new URL(page.url()).pathname.replace(/\/environments$/, '');
    for (const scheme of SCHEMES) {
      for (const width of [1440, 390]) {
        await page.setViewportSize({ width, height: 900 });
        for (const [tab, shown] of [
          ['vpn-tunnels', page.getByRole('link', { name: 'Request a VPN Tunnel' })],
          ['vpc-peering', page.getByRole('link', { name: 'Request VPC Peering' })],
          // spec 2 §8: a stack that exposes no reports says so on its HIDS path.
          ['hids', page.getByText('We cannot expose intrusion detection reports for this stack.')],
        ] as const) {
          await page.goto(`${stackPath}/${tab}`);
          await expect(shown).toBeVisible();
          // The theme chosen once stays for the next pages.
          if ((await page.locator('html').getAttribute('data-theme')) !== scheme) await inTheme(page, scheme);
          const box = await shown.boundingBox();
          expect((box?.x ?? 0) + (box?.width ?? 0), `${tab} at ${width} px`).toBeLessThanOrEqual(width);
          expect(await sideways(page), `${tab} at ${width} px in ${scheme}`).toBe(0);
          await page.screenshot({
            path: testInfo.outputPath(`${tab}-${width}-${scheme}.png`),
            fullPage: true,
          });
        }
      }
    }
  });

  test('the dedicated stack request form applies its rules, then shows what will be sent', async ({
    signedInPage: page,
  }) => {
    await page.goto('/stacks');
    await page.getByRole('link', { name: 'New Dedicated Stack' }).click();
    await expect(page).toHaveURL(/\/create\/stack$/);
    await expect(page.getByRole('heading', { name: 'Request Dedicated Stack' })).toBeVisible();
    await expect(page.getByText(/Growth, Scale, Production and Enterprise plans/)).toBeVisible();

    const name = page.getByRole('textbox', { name: 'Stack name' });
    const submit = page.getByRole('button', { name: 'Request Dedicated Stack' });
    await submit.click();
    await expect(page.getByText('Stack name must not be empty', { exact: true })).toBeVisible();
    await expect(page.getByText('must select an AWS region', { exact: true })).toBeVisible();
    await expect(
      page.getByText('You must accept the terms to request a dedicated stack', { exact: true }),
    ).toBeVisible();

    await name.fill('Acme_Prod');
    await submit.click();
    await expect(
      page.getByText('Stack name may contain only lowercase letters, digits and hyphens', { exact: true }),
    ).toBeVisible();
    await name.fill('a'.repeat(27));
    await submit.click();
    await expect(page.getByText('Stack name must be at most 26 characters', { exact: true })).toBeVisible();

    await name.fill('acme-prod');
    await page.getByRole('combobox', { name: 'AWS region' }).selectOption('eu-west-1');
    await page.getByRole('checkbox').check();
    await submit.click();
    const request = page.getByRole('region', { name: 'Dedicated Stack request' });
    await expect(request).toContainText('Dedicated stack request: acme-prod (eu-west-1)');
    // Confirm opens the support form with the request filled in.
    await expect(request.getByRole('link', { name: 'Confirm' })).toHaveAttribute(
      'href',
      /^\/support\?subject=Dedicated\+stack\+request%3A\+acme-prod\+%28eu-west-1%29/,
    );
    await request.getByRole('button', { name: 'Cancel' }).click();
    await expect(name).toHaveValue('acme-prod');
  });
});
