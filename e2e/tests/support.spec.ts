import { sidebar } from '../fixtures/console.ts';
import { uniqueSuffix } from '../fixtures/emails.ts';
import { inTheme, SCHEMES, sideways } from '../fixtures/screen.ts';
import { expect, test } from '../fixtures/test.ts';

// spec 3 §2 Support: the ticket form (email, name, subject, description, priority, attachments uploaded
// first), Submit only with a subject and a message; the ticket reaches support's outbox with its file,
// and the requester gets a copy (the e2e server mails support@berth.test: playwright.config.ts).
const PNG = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  Buffer.from('a screenshot of the failing deploy'),
]);
const SENT = 'Your ticket was sent. A copy is on its way to your email address.';

test.describe('support', () => {
  // Each test walks several pages of a console the suite's other workers are using too.
  test.describe.configure({ timeout: 120_000 });

  test('a ticket with an attachment reaches the outbox, and its file downloads', async ({
    signedInPage: page,
    account,
    mailbox,
  }) => {
    await page.goto('/environments');
    await sidebar(page).getByRole('link', { name: 'SUPPORT' }).click();
    await expect(page).toHaveURL(/\/support$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Support' })).toBeVisible();

    // The requester's details are filled in; Submit waits for a subject and a message.
    await expect(page.getByRole('textbox', { name: 'Email' })).toHaveValue(account.email);
    await expect(page.getByRole('textbox', { name: 'Name' })).toHaveValue(account.name);
    const submit = page.getByRole('button', { name: 'Submit' });
    await expect(submit).toBeDisabled();
    const subject = `Deploy stuck ${uniqueSuffix()}`;
    await page.getByRole('textbox', { name: 'Subject' }).fill(subject);
    await expect(submit).toBeDisabled();
    await page.getByRole('textbox', { name: 'Description' }).fill('Our deploy has been queued for an hour.');
    await expect(submit).toBeEnabled();
    await page.getByRole('combobox', { name: 'Priority' }).selectOption('high');

    // A page renamed to .png is refused with the server's reason; a real picture is attached.
    const files = page.getByLabel('Attachments');
    await files.setInputFiles({
      name: 'page.png',
      mimeType: 'image/png',
      buffer: Buffer.from('<html></html>'),
    });
    await expect(page.getByText('The content of page.png does not match its type')).toBeVisible();
    await files.setInputFiles({ name: 'screen.png', mimeType: 'image/png', buffer: PNG });
    const attached = page.getByRole('list', { name: 'Attached files' });
    await expect(attached.getByText('screen.png')).toBeVisible();
    await expect(attached.getByText('page.png')).toHaveCount(0);

    await submit.click();
    await expect(page.getByText(SENT)).toBeVisible();
    await expect(page.getByRole('textbox', { name: 'Subject' })).toHaveValue('');

    const toSupport = await mailbox.waitFor({ to: 'support@berth.test', subject });
    expect(toSupport.subject).toMatch(new RegExp(`^Support ticket #\\d+ \\(high\\): ${subject}$`));
    expect(toSupport.text).toContain('Our deploy has been queued for an hour.');
    expect(toSupport.text).toContain('- screen.png (image/png');
    const copy = await mailbox.waitFor({ to: account.email, subject: `: ${subject}` });
    expect(copy.subject).toMatch(/^Your support ticket #\d+: /);

    // The ticket is listed for its requester, and its file downloads with its name.
    const tickets = page.getByRole('table', { name: 'Your tickets' });
    const row = tickets.getByRole('row', { name: new RegExp(subject) });
    await expect(row).toContainText('high');
    const download = page.waitForEvent('download');
    await row.getByRole('button', { name: 'screen.png' }).click();
    expect((await download).suggestedFilename()).toBe('screen.png');

    // The mail's link opens the ticket in full.
    const link = /https?:\/\/\S+\/support\?ticket=\d+/.exec(toSupport.text)?.[0] ?? '';
    await page.goto(new URL(link).pathname + new URL(link).search);
    await expect(page.getByRole('heading', { name: new RegExp(`Ticket #\\d+: ${subject}`) })).toBeVisible();
  });

  test('the stack tabs show their empty lists and open a prefilled ticket', async ({
    signedInPage: page,
  }) => {
    await page.goto('/stacks');
    await page.getByRole('table', { name: 'Stacks' }).getByRole('link', { name: 'shared-us-west-1' }).click();
    await expect(page).toHaveURL(/\/stacks\/\d+\/environments$/);
    const stackPath = new URL(page.url()).pathname.replace(/\/environments$/, '');
    const sections = page.getByRole('navigation', { name: 'Stack sections' });

    await sections.getByRole('link', { name: 'VPN Tunnels' }).click();
    const tunnels = page.getByRole('region', { name: 'VPN Tunnels' });
    await expect(tunnels.getByRole('heading', { name: 'No resources found' })).toBeVisible();
    await tunnels.getByRole('link', { name: 'Request a VPN Tunnel' }).click();
    await expect(page).toHaveURL(/\/support\?subject=VPN\+tunnel\+request/);
    await expect(page.getByRole('textbox', { name: 'Subject' })).toHaveValue(
      'VPN tunnel request for stack shared-us-west-1',
    );
    await expect(page.getByRole('textbox', { name: 'Description' })).toHaveValue(
      /^Please set up a VPN tunnel for stack shared-us-west-1 \(id \d+, us-west-1\)\./,
    );
    await expect(page.getByRole('button', { name: 'Submit' })).toBeEnabled();
    await page.goBack();

    await sections.getByRole('link', { name: 'VPC Peering' }).click();
    const peering = page.getByRole('region', { name: 'VPC Peering' });
    await expect(peering.getByRole('heading', { name: 'No resources found' })).toBeVisible();
    await peering.getByRole('link', { name: 'Request VPC Peering' }).click();
    await expect(page.getByRole('textbox', { name: 'Subject' })).toHaveValue(
      'VPC peering request for stack shared-us-west-1',
    );

    // spec 2 §8: the shared stack exposes no Managed HIDS reports.
    await page.goBack();
    await expect(sections.getByRole('link', { name: 'Managed HIDS' })).toHaveCount(0);
    await page.goto(`${stackPath}/hids`);
    await expect(
      page.getByText('We cannot expose intrusion detection reports for this stack.'),
    ).toBeVisible();
  });

  for (const scheme of SCHEMES) {
    for (const width of [1440, 390]) {
      test(`the support page and the stack tabs fit ${width} px in ${scheme}`, async ({
        signedInPage: page,
      }) => {
        await page.setViewportSize({ width, height: 900 });
        await page.goto('/support?subject=Looks%20right&description=On%20every%20screen');
        await inTheme(page, scheme);
        await expect(page.getByRole('heading', { level: 1, name: 'Support' })).toBeVisible();
        await expect(page.getByRole('button', { name: 'Submit' })).toBeEnabled();
        await expect(page.getByRole('region', { name: 'Your tickets' })).toBeVisible();
        expect(await sideways(page)).toBeLessThanOrEqual(0);
        await page.screenshot({
          path: test.info().outputPath(`support-${scheme}-${width}.png`),
          fullPage: true,
        });

        await page.goto('/stacks');
        await page
          .getByRole('table', { name: 'Stacks' })
          .getByRole('link', { name: 'shared-us-west-1' })
          .click();
        await page
          .getByRole('navigation', { name: 'Stack sections' })
          .getByRole('link', { name: 'VPN Tunnels' })
          .click();
        await expect(page.getByRole('link', { name: 'Request a VPN Tunnel' })).toBeVisible();
        expect(await sideways(page)).toBeLessThanOrEqual(0);
        await page.screenshot({ path: test.info().outputPath(`vpn-${scheme}-${width}.png`), fullPage: true });
      });
    }
  }
});
