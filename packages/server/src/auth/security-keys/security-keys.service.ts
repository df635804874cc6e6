import {
  securityKeyMessages,
  twoFactorMessages,
  U2F_CHALLENGE_TTL_SECONDS,
  type U2fChallengeResource,
  type U2fDeviceResource,
  type WebAuthnAssertionJson,
  type WebAuthnAttestationJson,
} from '@berth/core';
import type {
  AuthenticationResponseJSON,
  AuthenticatorTransport,
  RegistrationResponseJSON,
} from '@simplewebauthn/server';
import { and, asc, eq, gt, isNotNull, isNull, lt, or } from 'drizzle-orm';
import type { FamilyUrls } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { u2fChallenges, u2fDevices } from '../../db/schema.ts';
import { ApiError, notFound, unprocessable } from '../../http/errors.ts';
import { iso, links } from '../../http/hal.ts';
import { isUuid } from '../../http/ids.ts';
import type { RateLimiter } from '../rate-limit.ts';
import type { SecurityNotices } from '../security-notices.ts';
import type { UserRow } from '../tokens/token.service.ts';

type DeviceRow = typeof u2fDevices.$inferSelect;
type Purpose = 'registration' | 'authentication';

export const invalidSecurityKey = () => new ApiError(401, 'invalid_credentials', securityKeyMessages.invalid);

const TIMEOUT_MS = U2F_CHALLENGE_TTL_SECONDS * 1000;

/**
 * The WebAuthn library, imported when a security key is first used: with its encoders it holds some
 * 4 MB of heap, which a server whose users have no keys would keep idle for nothing.
 */
const webAuthn = () => import('@simplewebauthn/server');

/** The challenge a browser signed, read from its clientDataJSON (null when unreadable). */
function challengeOf(clientDataJSON: string): string | null {
  try {
    const data: unknown = JSON.parse(Buffer.from(clientDataJSON, 'base64url').toString('utf8'));
    const challenge = (data as { challenge?: unknown } | null)?.challenge;
    return typeof challenge === 'string' && challenge.length <= 1024 ? challenge : null;
  } catch {
    return null;
  }
}

const transportsOf = (row: DeviceRow) =>
  row.transports ? (row.transports.split(',') as AuthenticatorTransport[]) : undefined;

/**
 * WebAuthn security keys (contract §4.1 u2f_challenge and u2f_device, §3.7). The relying party is the
 * console's public URL: its hostname is the RP id and its origin the only origin accepted. Challenges are
 * random, bound to a user and a purpose, single use and expire after five minutes; an assertion's
 * signature counter must increase. Wrong assertions count against the user's 2FA attempts (`limiter`).
 */
export function createSecurityKeysService(deps: {
  db: Db;
  urls: FamilyUrls;
  limiter: RateLimiter;
  /** The user hears of each key added or removed. */
  notices: SecurityNotices;
}) {
  const { db, urls, limiter, notices } = deps;
  const publicUrl = new URL(urls.app);
  const rpID = publicUrl.hostname;
  const origin = publicUrl.origin;

  async function devicesOf(userId: string): Promise<DeviceRow[]> {
    return db
      .select()
      .from(u2fDevices)
      .where(eq(u2fDevices.userId, userId))
      .orderBy(asc(u2fDevices.createdAt), asc(u2fDevices.id));
  }

  async function storeChallenge(userId: string, purpose: Purpose, challenge: string) {
    const now = new Date();
    // Expired or spent challenges of the user are no use to anyone.
    await db
      .delete(u2fChallenges)
      .where(
        and(
          eq(u2fChallenges.userId, userId),
          or(lt(u2fChallenges.expiresAt, now), isNotNull(u2fChallenges.usedAt)),
        ),
      );
    const [row] = await db
      .insert(u2fChallenges)
      .values({
        userId,
        purpose,
        challenge,
        expiresAt: new Date(now.getTime() + TIMEOUT_MS),
      })
      .returning();
    if (!row) throw new Error('u2f challenge insert returned nothing');
    return row;
  }

  /** Marks the challenge used, once: only an unused, unexpired challenge of this user and purpose. */
  async function spendChallenge(userId: string, purpose: Purpose, challenge: string | null) {
    if (!challenge) return false;
    const spent = await db
      .update(u2fChallenges)
      .set({ usedAt: new Date(), updatedAt: new Date() })
      .where(
        and(
          eq(u2fChallenges.userId, userId),
          eq(u2fChallenges.purpose, purpose),
          eq(u2fChallenges.challenge, challenge),
          isNull(u2fChallenges.usedAt),
          gt(u2fChallenges.expiresAt, new Date()),
        ),
      )
      .returning({ id: u2fChallenges.id });
    return spent.length > 0;
  }

  /**
   * The user's key that signed `assertion` over `challenge` for this relying party, with its new
   * signature counter; null when no key of the user's did, or its counter did not increase.
   */
  async function signedBy(user: UserRow, assertion: WebAuthnAssertionJson, challenge: string) {
    const [device] = await db
      .select()
      .from(u2fDevices)
      .where(and(eq(u2fDevices.userId, user.id), eq(u2fDevices.credentialId, assertion.id)));
    if (!device) return null;
    const { verifyAuthenticationResponse } = await webAuthn();
    const verification = await verifyAuthenticationResponse({
      response: assertion as unknown as AuthenticationResponseJSON,
      expectedChallenge: challenge,
      expectedOrigin: origin,
      expectedRPID: rpID,
      credential: {
        id: device.credentialId,
        publicKey: new Uint8Array(Buffer.from(device.publicKey, 'base64url')),
        counter: device.signCount,
        transports: transportsOf(device),
      },
      requireUserVerification: false,
    }).catch(() => null);
    if (!verification?.verified) return null;
    return { device, newCounter: verification.authenticationInfo.newCounter };
  }

  function toDeviceHal(row: DeviceRow): U2fDeviceResource {
    return {
      id: row.id,
      _type: 'u2f_device' as const,
      name: row.name,
      version: row.version,
      key_handle: row.credentialId,
      created_at: iso(row.createdAt),
      updated_at: iso(row.updatedAt),
      _links: links({
        self: `${urls.auth}/u2f_devices/${row.id}`,
        user: `${urls.auth}/users/${row.userId}`,
      }),
    };
  }

  return {
    toDeviceHal,
    devicesOf,

    /** Creation options for a new key of the user's (2FA must be on). */
    async registrationChallenge(user: UserRow): Promise<U2fChallengeResource> {
      if (!user.otpEnabled) throw unprocessable(twoFactorMessages.securityKeyNeedsOtp);
      const existing = await devicesOf(user.id);
      const { generateRegistrationOptions } = await webAuthn();
      const options = await generateRegistrationOptions({
        rpName: 'Berth',
        rpID,
        userName: user.email,
        userDisplayName: user.name,
        userID: new TextEncoder().encode(user.id),
        timeout: TIMEOUT_MS,
        attestationType: 'none',
        excludeCredentials: existing.map((row) => ({ id: row.credentialId, transports: transportsOf(row) })),
        authenticatorSelection: { residentKey: 'discouraged', userVerification: 'discouraged' },
      });
      const row = await storeChallenge(user.id, 'registration', options.challenge);
      return { id: row.id, challenge: options.challenge, payload: { ...options } };
    },

    /** Verifies a new key's attestation against a registration challenge of the user's, and keeps it. */
    async register(user: UserRow, name: string, attestation: WebAuthnAttestationJson): Promise<DeviceRow> {
      if (!user.otpEnabled) throw unprocessable(twoFactorMessages.securityKeyNeedsOtp);
      const challenge = challengeOf(attestation.response.clientDataJSON);
      if (!(await spendChallenge(user.id, 'registration', challenge)) || !challenge) {
        throw unprocessable(securityKeyMessages.invalid);
      }
      const { verifyRegistrationResponse } = await webAuthn();
      const verification = await verifyRegistrationResponse({
        response: attestation as unknown as RegistrationResponseJSON,
        expectedChallenge: challenge,
        expectedOrigin: origin,
        expectedRPID: rpID,
        requireUserVerification: false,
      }).catch(() => null);
      if (!verification?.verified || !verification.registrationInfo) {
        throw unprocessable(securityKeyMessages.invalid);
      }
      const { credential } = verification.registrationInfo;
      const [row] = await db
        .insert(u2fDevices)
        .values({
          userId: user.id,
          name,
          version: 'WEBAUTHN',
          credentialId: credential.id,
          publicKey: Buffer.from(credential.publicKey).toString('base64url'),
          signCount: credential.counter,
          transports: credential.transports?.join(',') || null,
        })
        .returning()
        .catch((error: unknown) => {
          if (isUniqueViolation(error)) throw unprocessable('This security key has already been added');
          throw error;
        });
      if (!row) throw new Error('u2f device insert returned nothing');
      await notices.tell(user, { kind: 'security-key-added', name: row.name });
      return row;
    },

    async remove(user: UserRow, id: string): Promise<void> {
      if (!isUuid(id)) throw notFound('Security key');
      const [deleted] = await db
        .delete(u2fDevices)
        .where(and(eq(u2fDevices.id, id), eq(u2fDevices.userId, user.id)))
        .returning({ name: u2fDevices.name });
      if (!deleted) throw notFound('Security key');
      await notices.tell(user, { kind: 'security-key-removed', name: deleted.name });
    },

    /** Request options for a login or elevation, or null when the user has no keys. */
    async authenticationOptions(user: UserRow): Promise<Record<string, unknown> | null> {
      const devices = await devicesOf(user.id);
      if (devices.length === 0) return null;
      const { generateAuthenticationOptions } = await webAuthn();
      const options = await generateAuthenticationOptions({
        rpID,
        timeout: TIMEOUT_MS,
        userVerification: 'discouraged',
        allowCredentials: devices.map((row) => ({ id: row.credentialId, transports: transportsOf(row) })),
      });
      await storeChallenge(user.id, 'authentication', options.challenge);
      return { ...options };
    },

    /**
     * Whether `verifyAssertion` would accept `assertion` now, without spending its challenge or counting
     * it: the login lock's door checks the second factor before the password (see codeHolds in
     * two-factor.service.ts), and a wrong assertion there must not count toward the user's 2FA lock.
     */
    async assertionHolds(user: UserRow, assertion: WebAuthnAssertionJson): Promise<boolean> {
      const challenge = challengeOf(assertion.response.clientDataJSON);
      if (!challenge) return false;
      const [open] = await db
        .select({ id: u2fChallenges.id })
        .from(u2fChallenges)
        .where(
          and(
            eq(u2fChallenges.userId, user.id),
            eq(u2fChallenges.purpose, 'authentication'),
            eq(u2fChallenges.challenge, challenge),
            isNull(u2fChallenges.usedAt),
            gt(u2fChallenges.expiresAt, new Date()),
          ),
        );
      return open !== undefined && (await signedBy(user, assertion, challenge)) !== null;
    },

    /**
     * The second factor as a key assertion: an authentication challenge of the user's, signed by one of
     * their keys, with a signature counter above the last one seen (401 `invalid_credentials` otherwise).
     */
    async verifyAssertion(user: UserRow, assertion: WebAuthnAssertionJson): Promise<void> {
      const attempt = await limiter.hit(`user:${user.id}`);
      const challenge = challengeOf(assertion.response.clientDataJSON);
      if (!(await spendChallenge(user.id, 'authentication', challenge)) || !challenge) {
        throw invalidSecurityKey();
      }
      const signed = await signedBy(user, assertion, challenge);
      if (!signed) throw invalidSecurityKey();
      const { device, newCounter } = signed;
      // Kept atomically: two assertions with the same counter cannot both pass (a cloned key).
      const counted = await db
        .update(u2fDevices)
        .set({ signCount: newCounter, updatedAt: new Date() })
        .where(
          and(
            eq(u2fDevices.id, device.id),
            newCounter === 0 ? eq(u2fDevices.signCount, 0) : lt(u2fDevices.signCount, newCounter),
          ),
        )
        .returning({ id: u2fDevices.id });
      if (counted.length === 0) throw invalidSecurityKey();
      await attempt.forgive();
    },
  };
}
export type SecurityKeysService = ReturnType<typeof createSecurityKeysService>;
