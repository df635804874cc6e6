import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** The cookie that tells the login limiter a browser has logged in to an account before. */
export const DEVICE_COOKIE = 'berth_device';
/** A device stays known for a year after its last login (each login issues a fresh cookie). */
export const DEVICE_COOKIE_MAX_AGE_SECONDS = 365 * 24 * 60 * 60;

const NONCE_BYTES = 16;
/** `<nonce>.<signature>`, both base64url: 22 and 43 characters. */
const COOKIE_LENGTH = 22 + 1 + 43;
const COOKIE_SHAPE = /^[\w-]{22}\.[\w-]{43}$/;

/**
 * Device cookies (OWASP's "Slow Down Online Guessing Attacks with Device Cookies"): a successful login
 * gets a random nonce signed together with the account's login name, with a key derived from the server
 * secret. A login that brings a valid one for its account comes from a device the account's owner used,
 * and is limited per device instead of by the account's lock (rate-limit.ts). The name is not written
 * into the cookie: the signature binds it, so a cookie of one account is simply invalid for another.
 * The signature binds the account's password hash too: a password change or reset forgets every device
 * known before it, so whoever once knew the old password keeps no way past the lock.
 */
export function createDeviceCookies(serverSecret: Uint8Array) {
  const key = createHmac('sha256', serverSecret).update('berth device cookies').digest();
  // The nonce has a fixed length, so nonce and login name cannot be shifted into each other.
  // A NUL cannot be part of a login name, so name and hash cannot be shifted into each other either.
  const signatureOf = (nonce: string, login: string, passwordHash: string) =>
    createHmac('sha256', key).update(`${nonce}${login.toLowerCase()}\0${passwordHash}`).digest();

  return {
    /** A new cookie value for a device that just logged in as `login` (whose password hash it binds). */
    issue(login: string, passwordHash: string): string {
      const nonce = randomBytes(NONCE_BYTES).toString('base64url');
      return `${nonce}.${signatureOf(nonce, login, passwordHash).toString('base64url')}`;
    },

    /**
     * The device's nonce when `cookie` is one this server issued for `login` since its password was last
     * set (`passwordHash`: none for an unknown account), else undefined.
     */
    deviceOf(
      cookie: string | undefined,
      login: string,
      passwordHash: string | undefined,
    ): string | undefined {
      // Bounded before the pattern, and the pattern before any hashing.
      if (!cookie || passwordHash === undefined) return undefined;
      if (cookie.length !== COOKIE_LENGTH || !COOKIE_SHAPE.test(cookie)) return undefined;
      const [nonce = '', signature = ''] = cookie.split('.');
      const given = Buffer.from(signature, 'base64url');
      const expected = signatureOf(nonce, login, passwordHash);
      return given.length === expected.length && timingSafeEqual(given, expected) ? nonce : undefined;
    },
  };
}
export type DeviceCookies = ReturnType<typeof createDeviceCookies>;
