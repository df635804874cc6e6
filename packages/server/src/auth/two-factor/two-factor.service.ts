import { createHash, randomBytes } from 'node:crypto';
import {
  OTP_RECOVERY_CODE_COUNT,
  type OtpConfigurationResource,
  type OtpRecoveryCodeResource,
  TOTP,
  twoFactorMessages,
} from '@berth/core';
import { and, asc, eq, isNull, lt, or, sql } from 'drizzle-orm';
import { Secret, TOTP as Totp } from 'otpauth';
import type { FamilyUrls } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import { otpConfigurations, otpRecoveryCodes, otpResetChallenges, users } from '../../db/schema.ts';
import { ApiError, forbidden, notFound, unprocessable } from '../../http/errors.ts';
import { isUuid } from '../../http/ids.ts';
import { escapeHtml, type Mail, type Mailer } from '../../mail/mailer.ts';
import type { SecretBox } from '../../security/secret-box.ts';
import { membershipsOf } from '../access.ts';
import type { RateLimiter } from '../rate-limit.ts';
import type { SecurityNotices } from '../security-notices.ts';
import { revokeOtherTokens, sameSecret, type UserRow } from '../tokens/token.service.ts';

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
/** Recovery codes are compared without case, spaces or dashes: `ABCD-EFGH-...` as typed or pasted. */
const normalizeRecoveryCode = (code: string) => code.replace(/[\s-]/g, '').toLowerCase();

/** A recovery code: 80 random bits as 4 groups of 5 base32 characters (dashes only for reading). */
function newRecoveryCode(): string {
  const raw = new Secret({ size: 10 }).base32.toLowerCase();
  return raw.match(/.{1,4}/g)?.join('-') ?? raw;
}

/** OTP reset links live this long (seconds). */
export const OTP_RESET_TTL_SECONDS = 24 * 60 * 60;
/** Wrong codes a reset link survives. */
export const OTP_RESET_MAX_FAILURES = 5;

export const invalidOtp = () => new ApiError(401, 'invalid_credentials', twoFactorMessages.invalidToken);
export const otpRequired = () => new ApiError(401, 'otp_token_required', twoFactorMessages.otpRequired);
export const otpResetFailed = () => new ApiError(422, 'invalid_verification', twoFactorMessages.resetFailed);

type ConfigurationRow = typeof otpConfigurations.$inferSelect;

function otpResetMail(to: string, name: string, requestedBy: string, link: string): Mail {
  const text =
    `Hi ${name},\n\n${requestedBy} asked to reset the two-factor authentication of your Berth account.\n\n` +
    `To turn 2FA off, open this link:\n\n${link}\n\nThe link expires in 24 hours. ` +
    'Until you open it, your 2FA stays on. If you did not expect this, ignore this message.\n';
  return {
    to,
    subject: 'Reset your Berth two-factor authentication',
    text,
    html:
      `<p>Hi ${escapeHtml(name)},</p><p>${escapeHtml(requestedBy)} asked to reset the two-factor authentication of your Berth account.</p>` +
      `<p>To turn 2FA off, open this link:</p><p><a href="${escapeHtml(link)}">${escapeHtml(link)}</a></p>` +
      '<p>The link expires in 24 hours. Until you open it, your 2FA stays on. If you did not expect this, ignore this message.</p>',
  };
}

/**
 * TOTP (RFC 6238: SHA1, 6 digits, 30 s steps, one step of skew either way) with single-use recovery
 * codes. A configuration is created pending and enabled by a valid code; each accepted code's step is
 * remembered, so a code is never accepted twice. Wrong codes are counted per user (`limiter`).
 */
export function createTwoFactorService(deps: {
  db: Db;
  urls: FamilyUrls;
  mailer: Mailer;
  /** The user hears of each change to their 2FA, and of each recovery code used. */
  notices: SecurityNotices;
  box: SecretBox;
  limiter: RateLimiter;
}) {
  const { db, urls, mailer, notices, box, limiter } = deps;

  function totpOf(configuration: ConfigurationRow, email: string) {
    return new Totp({
      issuer: TOTP.issuer,
      label: email,
      algorithm: TOTP.algorithm,
      digits: TOTP.digits,
      period: TOTP.period,
      secret: Secret.fromBase32(box.open(configuration.secretSealed)),
    });
  }

  async function configurationOf(userId: string, id: string): Promise<ConfigurationRow | undefined> {
    if (!isUuid(id)) return undefined;
    const [row] = await db
      .select()
      .from(otpConfigurations)
      .where(and(eq(otpConfigurations.id, id), eq(otpConfigurations.userId, userId)));
    return row;
  }

  /** The step of a TOTP code valid now (one step of skew either way), or null. */
  function totpStep(configuration: ConfigurationRow, email: string, code: string): number | null {
    if (!/^\d{6}$/.test(code)) return null;
    const totp = totpOf(configuration, email);
    const delta = totp.validate({ token: code, window: 1 });
    return delta === null ? null : totp.counter() + delta;
  }

  /** Accepts a TOTP code once: its step must be newer than the last one used (kept atomically). */
  async function spendTotp(configuration: ConfigurationRow, email: string, code: string): Promise<boolean> {
    const counter = totpStep(configuration, email, code);
    if (counter === null) return false;
    const spent = await db
      .update(otpConfigurations)
      .set({ lastUsedCounter: counter, updatedAt: new Date() })
      .where(
        and(
          eq(otpConfigurations.id, configuration.id),
          or(isNull(otpConfigurations.lastUsedCounter), lt(otpConfigurations.lastUsedCounter, counter)),
        ),
      )
      .returning({ id: otpConfigurations.id });
    return spent.length > 0;
  }

  async function spendRecoveryCode(configurationId: string, code: string): Promise<boolean> {
    const normalized = normalizeRecoveryCode(code);
    if (normalized.length !== 16) return false;
    const spent = await db
      .update(otpRecoveryCodes)
      .set({ usedAt: new Date(), updatedAt: new Date() })
      .where(
        and(
          eq(otpRecoveryCodes.configurationId, configurationId),
          eq(otpRecoveryCodes.codeHash, sha256(normalized)),
          isNull(otpRecoveryCodes.usedAt),
        ),
      )
      .returning({ id: otpRecoveryCodes.id });
    return spent.length > 0;
  }

  async function unusedRecoveryCodes(configurationId: string): Promise<number> {
    const [row] = await db
      .select({ count: sql<number>`count(*)::int` })
      .from(otpRecoveryCodes)
      .where(and(eq(otpRecoveryCodes.configurationId, configurationId), isNull(otpRecoveryCodes.usedAt)));
    return row?.count ?? 0;
  }

  /** Counts a code attempt of the user (429 when over), checks it, and forgives it when right. */
  async function checked(userId: string, check: () => Promise<boolean>): Promise<void> {
    const attempt = await limiter.hit(`user:${userId}`);
    if (!(await check())) throw invalidOtp();
    await attempt.forgive();
  }

  async function replaceRecoveryCodes(configurationId: string): Promise<void> {
    const now = new Date();
    const codes = Array.from({ length: OTP_RECOVERY_CODE_COUNT }, newRecoveryCode);
    await db.transaction(async (tx) => {
      await tx.delete(otpRecoveryCodes).where(eq(otpRecoveryCodes.configurationId, configurationId));
      await tx.insert(otpRecoveryCodes).values(
        codes.map((value, position) => ({
          configurationId,
          position,
          codeHash: sha256(normalizeRecoveryCode(value)),
          valueSealed: box.seal(value),
          createdAt: now,
          updatedAt: now,
        })),
      );
    });
  }

  function toConfigurationHal(configuration: ConfigurationRow, email: string): OtpConfigurationResource {
    const self = `${urls.auth}/otp_configurations/${configuration.id}`;
    return {
      id: configuration.id,
      _type: 'otp_configuration' as const,
      otp_uri: totpOf(configuration, email).toString(),
      created_at: configuration.createdAt.toISOString(),
      updated_at: configuration.updatedAt.toISOString(),
      _links: {
        self: { href: self },
        user: { href: `${urls.auth}/users/${configuration.userId}` },
        otp_recovery_codes: { href: `${self}/otp_recovery_codes` },
      },
    };
  }

  return {
    toConfigurationHal,

    /** A new pending configuration (160-bit secret) with its recovery codes; 2FA stays as it was. */
    async create(user: UserRow): Promise<ConfigurationRow> {
      const secret = new Secret({ size: TOTP.secretBytes });
      const [row] = await db
        .insert(otpConfigurations)
        .values({ userId: user.id, secretSealed: box.seal(secret.base32) })
        .returning();
      if (!row) throw new Error('OTP configuration insert returned nothing');
      await replaceRecoveryCodes(row.id);
      return row;
    },

    /**
     * Turns 2FA on with a pending configuration of the user's, given a valid code of it. Sessions made
     * before needed no second factor: every token of the user but `keep` (the request's) ends.
     */
    async enable(user: UserRow, configurationId: string, code: string, keep: string[]): Promise<UserRow> {
      const configuration = await configurationOf(user.id, configurationId);
      if (!configuration)
        throw unprocessable('current_otp_configuration is not one of your OTP configurations');
      if (user.otpEnabled && user.currentOtpConfigurationId === configuration.id) return user;
      await checked(user.id, () => spendTotp(configuration, user.email, code.trim()));
      const now = new Date();
      const [updated] = await db.transaction(async (tx) => {
        await tx
          .update(otpConfigurations)
          .set({ enabledAt: now, updatedAt: now })
          .where(eq(otpConfigurations.id, configuration.id));
        await revokeOtherTokens(tx, user.id, keep);
        return tx
          .update(users)
          .set({ otpEnabled: true, currentOtpConfigurationId: configuration.id, updatedAt: now })
          .where(eq(users.id, user.id))
          .returning();
      });
      await notices.tell(updated ?? user, { kind: 'two-factor-on' });
      return updated ?? user;
    },

    /**
     * Turns 2FA off; every configuration of the user (and its recovery codes) goes. When it was on, every
     * token of the user but `keep` (the request's) ends, as with any change of how the account signs in.
     */
    async disable(user: UserRow, keep: string[]): Promise<UserRow> {
      const now = new Date();
      const [updated] = await db.transaction(async (tx) => {
        await tx.delete(otpConfigurations).where(eq(otpConfigurations.userId, user.id));
        if (user.otpEnabled) await revokeOtherTokens(tx, user.id, keep);
        return tx
          .update(users)
          .set({ otpEnabled: false, currentOtpConfigurationId: null, updatedAt: now })
          .where(eq(users.id, user.id))
          .returning();
      });
      if (user.otpEnabled) await notices.tell(updated ?? user, { kind: 'two-factor-off' });
      return updated ?? user;
    },

    /**
     * The second factor of a login or elevation: nothing to do without 2FA; otherwise a TOTP code or an
     * unused recovery code is required (401 `otp_token_required` without one, `invalid_credentials` for a
     * wrong or replayed one).
     */
    async requireSecondFactor(user: UserRow, code: string | undefined): Promise<void> {
      if (!user.otpEnabled || !user.currentOtpConfigurationId) return;
      const token = code?.trim() ?? '';
      if (token === '') throw otpRequired();
      const configuration = await configurationOf(user.id, user.currentOtpConfigurationId);
      if (!configuration) throw otpRequired();
      let recoveryCodeUsed = false;
      await checked(user.id, async () => {
        if (await spendTotp(configuration, user.email, token)) return true;
        recoveryCodeUsed = await spendRecoveryCode(configuration.id, token);
        return recoveryCodeUsed;
      });
      // A recovery code stands in for the authenticator app: its owner should know when one is spent.
      if (recoveryCodeUsed) {
        const left = await unusedRecoveryCodes(configuration.id);
        await notices.tell(user, { kind: 'recovery-code-used', left });
      }
    },

    /**
     * Which kind of second factor `code` is when it would pass `requireSecondFactor` now (an unused TOTP
     * step, or an unused recovery code of the user's 2FA), else null; without spending it or counting it:
     * the login lock's door (tokens.routes.ts) decides what to spend. Its guesses are counted per client
     * address there, not per user, so nobody can use them to hold the user's 2FA locked.
     */
    async codeHolds(user: UserRow, code: string | undefined): Promise<'step' | 'recovery' | null> {
      if (!user.otpEnabled || !user.currentOtpConfigurationId) return null;
      const token = code?.trim() ?? '';
      if (token === '') return null;
      const configuration = await configurationOf(user.id, user.currentOtpConfigurationId);
      if (!configuration) return null;
      const step = totpStep(configuration, user.email, token);
      const lastUsed = configuration.lastUsedCounter;
      if (step !== null) return lastUsed === null || lastUsed < step ? 'step' : null;
      const normalized = normalizeRecoveryCode(token);
      if (normalized.length !== 16) return null;
      const [unused] = await db
        .select({ id: otpRecoveryCodes.id })
        .from(otpRecoveryCodes)
        .where(
          and(
            eq(otpRecoveryCodes.configurationId, configuration.id),
            eq(otpRecoveryCodes.codeHash, sha256(normalized)),
            isNull(otpRecoveryCodes.usedAt),
          ),
        );
      return unused === undefined ? null : 'recovery';
    },

    /** The recovery codes of the user's configuration (404 for anyone else's). */
    async recoveryCodes(user: UserRow, configurationId: string): Promise<OtpRecoveryCodeResource[]> {
      const configuration = await configurationOf(user.id, configurationId);
      if (!configuration) throw notFound('OTP configuration');
      const rows = await db
        .select()
        .from(otpRecoveryCodes)
        .where(eq(otpRecoveryCodes.configurationId, configuration.id))
        .orderBy(asc(otpRecoveryCodes.position));
      const self = `${urls.auth}/otp_configurations/${configuration.id}`;
      return rows.map((row) => ({
        id: row.id,
        _type: 'otp_recovery_code' as const,
        value: row.usedAt ? '' : box.open(row.valueSealed),
        used: row.usedAt !== null,
        created_at: row.createdAt.toISOString(),
        updated_at: row.updatedAt.toISOString(),
        _links: {
          self: { href: `${self}/otp_recovery_codes/${row.id}` },
          otp_configuration: { href: self },
        },
      }));
    },

    /** New recovery codes for the user's configuration; the old ones stop working. */
    async regenerateRecoveryCodes(user: UserRow, configurationId: string): Promise<void> {
      const configuration = await configurationOf(user.id, configurationId);
      if (!configuration) throw notFound('OTP configuration');
      await replaceRecoveryCodes(configuration.id);
      // Only the codes of 2FA in force protect the account (a pending setup's are not news).
      if (user.otpEnabled && user.currentOtpConfigurationId === configuration.id) {
        await notices.tell(user, { kind: 'recovery-codes-renewed' });
      }
    },

    /** An owner of an organization the member belongs to asks for the member's 2FA to be reset. */
    async requestReset(owner: UserRow, memberId: string): Promise<void> {
      if (!isUuid(memberId)) throw notFound('User');
      const [ownerships, theirs] = await Promise.all([
        membershipsOf(db, owner.id),
        membershipsOf(db, memberId),
      ]);
      const shared = new Set(theirs.map((m) => m.organizationId));
      const sharesAny = ownerships.some((m) => shared.has(m.organizationId));
      if (!sharesAny) throw notFound('User');
      const ownsShared = ownerships.some((m) => m.roleType === 'owner' && shared.has(m.organizationId));
      if (!ownsShared)
        throw forbidden('Only organization owners can reset the 2FA of a member', 'access_denied');
      const [member] = await db.select().from(users).where(eq(users.id, memberId));
      if (!member) throw notFound('User');
      if (!member.otpEnabled) throw unprocessable('This member does not have 2FA turned on');
      const code = randomBytes(24).toString('base64url');
      const [challenge] = await db
        .insert(otpResetChallenges)
        .values({
          userId: member.id,
          requestedById: owner.id,
          codeHash: sha256(code),
          expiresAt: new Date(Date.now() + OTP_RESET_TTL_SECONDS * 1000),
        })
        .returning();
      if (!challenge) throw new Error('OTP reset insert returned nothing');
      await mailer.send(
        otpResetMail(
          member.email,
          member.name,
          owner.name,
          `${urls.app}/otp-reset-verify/${challenge.id}/${code}`,
        ),
      );
    },

    /** The member confirms the reset with the mailed link: 2FA goes off, other sessions end. */
    async completeReset(challengeId: string, code: string, keep: string[]): Promise<void> {
      if (!isUuid(challengeId)) throw otpResetFailed();
      const outcome = await db.transaction(async (tx): Promise<ApiError | UserRow | undefined> => {
        const [challenge] = await tx
          .select()
          .from(otpResetChallenges)
          .where(eq(otpResetChallenges.id, challengeId))
          .for('update');
        if (!challenge || challenge.completedAt || challenge.expiresAt.getTime() <= Date.now()) {
          return otpResetFailed();
        }
        if (challenge.failedAttempts >= OTP_RESET_MAX_FAILURES) return otpResetFailed();
        if (!sameSecret(challenge.codeHash, sha256(code))) {
          await tx
            .update(otpResetChallenges)
            .set({ failedAttempts: sql`${otpResetChallenges.failedAttempts} + 1` })
            .where(eq(otpResetChallenges.id, challenge.id));
          return otpResetFailed();
        }
        const now = new Date();
        await tx
          .update(otpResetChallenges)
          .set({ completedAt: now, updatedAt: now })
          .where(eq(otpResetChallenges.userId, challenge.userId));
        const [member] = await tx
          .update(users)
          .set({ otpEnabled: false, currentOtpConfigurationId: null, updatedAt: now })
          .where(eq(users.id, challenge.userId))
          .returning();
        await tx.delete(otpConfigurations).where(eq(otpConfigurations.userId, challenge.userId));
        await revokeOtherTokens(tx, challenge.userId, keep);
        return member;
      });
      if (outcome instanceof ApiError) throw outcome;
      if (outcome) await notices.tell(outcome, { kind: 'two-factor-reset' });
    },
  };
}
export type TwoFactorService = ReturnType<typeof createTwoFactorService>;
