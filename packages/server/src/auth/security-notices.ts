import type { FamilyUrls } from '../config.ts';
import type { Mailer } from '../mail/mailer.ts';
import { type SecurityChange, securityNoticeMail } from '../mail/security-notice-mail.ts';

/**
 * Tells users of changes to how their account signs in (password, 2FA, recovery codes, security and
 * SSH keys), once the change is made. The change stands whatever the mail does: a failed delivery stays
 * in the outbox with its reason (mailer.ts) and is reported through `onMailError`.
 */
export function createSecurityNotices(deps: {
  mailer: Mailer;
  urls: FamilyUrls;
  onMailError: (error: unknown) => void;
}) {
  return {
    async tell(user: { email: string; name: string }, change: SecurityChange): Promise<void> {
      const mail = securityNoticeMail(user.email, user.name, change, new Date(), deps.urls.app);
      await deps.mailer.send(mail).catch(deps.onMailError);
    },
  };
}
export type SecurityNotices = ReturnType<typeof createSecurityNotices>;
