// The longest value each kind of input may be. Every string the server accepts has one, checked before
// any pattern runs, so the work a request causes is bounded by these numbers and not by its size.

export const MAX_LENGTH = {
  /** RFC 5321: a forward path holds at most 254 characters. */
  email: 254,
  /** RFC 1035: a name of at most 253 characters. */
  domain: 253,
  /** A URL naming another resource (contract §1.7), or any other URL. */
  reference: 2048,
  /** An id in a path or a body (numeric ids, UUIDs). */
  id: 64,
  /** A signed access token or a session cookie. */
  token: 4096,
  /** A password as typed at login (a valid one is at most 72 bytes; longer only ever fails). */
  password: 1024,
  /** One-time codes, verification and invitation codes. */
  code: 256,
  /** Short enumerations sent as text (types, scopes, grant types, statuses). */
  keyword: 100,
  /** Names and short free text. */
  text: 200,
  /** A PEM certificate chain or private key. */
  pem: 64 * 1024,
  /** The backstop of the routes that take PEM text. */
  pemBody: 256 * 1024,
  /** An environment variable's name and its value. */
  envKey: 256,
  envValue: 32 * 1024,
  /** A query parameter's value (search text, filters). */
  query: 2048,
  /** A path parameter (the router answers 414 past it; ids and handles are far shorter). */
  pathParameter: 100,
  /**
   * The backstop for any string in a request body, unless its route allows more: above every field's
   * own limit, so a field over its limit gets its own message, and a field no schema reads is bounded.
   */
  bodyString: 64 * 1024,
} as const;

/** The message for a value over its limit. */
export function tooLongMessage(label: string, max: number): string {
  return `${label} must be at most ${max} characters`;
}
