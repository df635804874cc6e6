import { escapeHtml, type Mail } from './mailer.ts';

/**
 * A change to how an account signs in, told to its owner afterwards (ASVS 5.0 6.3.7): a change nobody
 * asked for does not go unnoticed. Names come from the user (keys); no secret is ever part of one.
 */
export type SecurityChange =
  | { kind: 'password-changed' }
  | { kind: 'password-reset' }
  | { kind: 'two-factor-on' }
  | { kind: 'two-factor-off' }
  | { kind: 'two-factor-reset' }
  | { kind: 'recovery-codes-renewed' }
  | { kind: 'recovery-code-used'; left: number }
  | { kind: 'security-key-added'; name: string }
  | { kind: 'security-key-removed'; name: string }
  | { kind: 'ssh-key-added'; name: string; fingerprint: string }
  | { kind: 'ssh-key-removed'; name: string; fingerprint: string }
  | { kind: 'access-token-added'; name: string; scope: string }
  | { kind: 'access-token-revoked'; name: string };

/** A moment as every reader can place it, whatever their time zone: `2026-11-28 14:03 UTC`. */
export function noticeTime(at: Date): string {
  return `${at.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

interface Notice {
  subject: string;
  /** What changed, when, and what it means. */
  change: string;
  /** What to do if the reader did not make the change. */
  ifNotYou: string;
}

function noticeOf(change: SecurityChange, when: string, app: string): Notice {
  const reset = `reset your password at ${app}/forgot-password right away`;
  switch (change.kind) {
    case 'password-changed':
      return {
        subject: 'Your Berth password was changed',
        change: `The password of your Berth account was changed on ${when}. Its other sessions were logged out and its access tokens revoked.`,
        ifNotYou: `If you did not change it, ${reset} and tell an owner of your organization.`,
      };
    case 'password-reset':
      return {
        subject: 'Your Berth password was reset',
        change: `The password of your Berth account was reset on ${when} with a link mailed to this address. Every session of the account was logged out and its access tokens revoked.`,
        ifNotYou: `If you did not reset it, someone can read your mail: secure your email account first, then ${reset}.`,
      };
    case 'two-factor-on':
      return {
        subject: 'Two-factor authentication was turned on for your Berth account',
        change: `Two-factor authentication was turned on for your Berth account on ${when}: logging in now asks for a code from an authenticator app. The account's other sessions were logged out and its access tokens revoked.`,
        ifNotYou: `If you did not turn it on, ${reset} and ask an owner of your organization to reset your 2FA.`,
      };
    case 'two-factor-off':
      return {
        subject: 'Two-factor authentication was turned off for your Berth account',
        change: `Two-factor authentication was turned off for your Berth account on ${when}: logging in asks only for the password now. The account's other sessions were logged out and its access tokens revoked.`,
        ifNotYou: `If you did not turn it off, ${reset}, then turn 2FA on again at ${app}/settings/security.`,
      };
    case 'two-factor-reset':
      return {
        subject: 'Two-factor authentication was reset for your Berth account',
        change: `Two-factor authentication was turned off for your Berth account on ${when}, through the reset link an owner of your organization asked for. The account's other sessions were logged out and its access tokens revoked.`,
        ifNotYou: `If you did not open that link, ${reset}, then turn 2FA on again at ${app}/settings/security.`,
      };
    case 'recovery-codes-renewed':
      return {
        subject: 'New recovery codes were made for your Berth account',
        change: `New two-factor recovery codes were made for your Berth account on ${when}. The earlier codes no longer work.`,
        ifNotYou: `If you did not make them, ${reset} and make new recovery codes at ${app}/settings/otp-recovery-codes.`,
      };
    case 'recovery-code-used': {
      const left = `${change.left} unused recovery code${change.left === 1 ? ' is' : 's are'} left.`;
      return {
        subject: 'A recovery code was used to sign in to your Berth account',
        change: `A two-factor recovery code was used to sign in to your Berth account on ${when}, in place of a code from the authenticator app. It works only once: ${left}`,
        ifNotYou: `If it was not you, someone has your password and a recovery code: ${reset} and make new recovery codes at ${app}/settings/otp-recovery-codes.`,
      };
    }
    case 'security-key-added':
      return {
        subject: 'A security key was added to your Berth account',
        change: `The security key "${change.name}" was added to your Berth account on ${when}. It can now be used as the second step of logging in.`,
        ifNotYou: `If you did not add it, remove it at ${app}/settings/security and ${reset}.`,
      };
    case 'security-key-removed':
      return {
        subject: 'A security key was removed from your Berth account',
        change: `The security key "${change.name}" was removed from your Berth account on ${when}.`,
        ifNotYou: `If you did not remove it, ${reset} and check your security keys at ${app}/settings/security.`,
      };
    case 'ssh-key-added':
      return {
        subject: 'An SSH key was added to your Berth account',
        change: `The SSH key "${change.name}" (${change.fingerprint}) was added to your Berth account on ${when}. It gives git and SSH access as you.`,
        ifNotYou: `If you did not add it, remove it at ${app}/settings/ssh and ${reset}.`,
      };
    case 'ssh-key-removed':
      return {
        subject: 'An SSH key was removed from your Berth account',
        change: `The SSH key "${change.name}" (${change.fingerprint}) was removed from your Berth account on ${when}.`,
        ifNotYou: `If you did not remove it, ${reset} and check your SSH keys at ${app}/settings/ssh.`,
      };
    case 'access-token-added':
      return {
        subject: 'A personal access token was made for your Berth account',
        change: `The personal access token "${change.name}" (scope ${change.scope}) was made for your Berth account on ${when}. It gives git and API access as you until it expires or is revoked.`,
        ifNotYou: `If you did not make it, revoke it at ${app}/settings/tokens and ${reset}.`,
      };
    case 'access-token-revoked':
      return {
        subject: 'A personal access token of your Berth account was revoked',
        change: `The personal access token "${change.name}" of your Berth account was revoked on ${when}. Git pushes and API calls made with it are refused from now on.`,
        ifNotYou: `If you did not revoke it, ${reset} and check your access tokens at ${app}/settings/tokens.`,
      };
  }
}

/** The notice of `change` for the account's owner, as of `at`; `app` is the console's URL. */
export function securityNoticeMail(
  to: string,
  name: string,
  change: SecurityChange,
  at: Date,
  app: string,
): Mail {
  const notice = noticeOf(change, noticeTime(at), app);
  return {
    to,
    subject: notice.subject,
    text: `Hi ${name},\n\n${notice.change}\n\n${notice.ifNotYou}\n`,
    html: `<p>Hi ${escapeHtml(name)},</p><p>${escapeHtml(notice.change)}</p><p>${escapeHtml(notice.ifNotYou)}</p>`,
  };
}
