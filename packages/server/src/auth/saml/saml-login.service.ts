import { randomBytes } from 'node:crypto';
import { isValidEmail, MAX_LENGTH, type SsoFailureCode, TOKEN_LIFETIME_SECONDS } from '@berth/core';
import { hash as hashPassword } from '@node-rs/argon2';
import { type Profile, SAML, SamlStatusError, ValidateInResponseTo } from '@node-saml/node-saml';
import { and, eq, gt, inArray, sql } from 'drizzle-orm';
import { recordAuditEvent } from '../../api/audit-events/audit-events.repo.ts';
import type { FamilyUrls } from '../../config.ts';
import type { Db, DbOrTx } from '../../db/client.ts';
import {
  invitations,
  memberships,
  roles,
  samlIdentities,
  samlRequests,
  samlUsedMessages,
  scimUsers,
  users,
} from '../../db/schema.ts';
import { isMemberOf } from '../access.ts';
import type { ClientInfo, IssuedToken, TokenService, UserRow } from '../tokens/token.service.ts';
import { hasDoctype, parseXml, sha256Hex } from './idp-metadata.ts';
import { serviceProviderUrls } from './saml-configurations.hal.ts';
import type { SamlConfigurationRow, SamlConfigurationsService } from './saml-configurations.service.ts';
import { SAML_REQUEST_TTL_MS, samlRequestCache, sweepExpiredSaml } from './saml-request-cache.ts';

/** spec 1 §8's failure codes: the console's /sso/failure page explains each. */
export class SsoFailure extends Error {
  override name = 'SsoFailure';
  constructor(
    readonly code: SsoFailureCode,
    /** Why, for the server's log only: the browser is told the code. */
    readonly reason: string,
    /** Where the browser goes with the code, when the login it answers is known. */
    readonly redirectUri?: string,
  ) {
    super(reason);
  }
}

/** At most this much clock skew between the IdP and Berth (the issue's bound). */
export const SAML_CLOCK_SKEW_MS = 60_000;
/** SSO login starts a client address may make in a minute (saml.routes.ts). */
export const SSO_LOGIN_STARTS_PER_MINUTE = 120;
/** The longest CLI token a login may ask for (spec 3: one week). */
const CLI_TOKEN_MAX_SECONDS = 7 * 24 * 60 * 60;
/** How long used messages are remembered when the assertion names no end of its validity. */
const USED_MESSAGE_FALLBACK_MS = 24 * 60 * 60 * 1000;

const PROTOCOL_NS = 'urn:oasis:names:tc:SAML:2.0:protocol';
const ASSERTION_NS = 'urn:oasis:names:tc:SAML:2.0:assertion';
const EMAIL_NAME_ID = 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress';

/** Attribute names IdPs send the address and the name under (Okta's, Entra's, the OIDs). */
const EMAIL_ATTRIBUTES = [
  'email',
  'Email',
  'mail',
  'emailaddress',
  'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress',
  'urn:oid:0.9.2342.19200300.100.1.3',
];
const NAME_ATTRIBUTES = [
  'displayName',
  'name',
  'http://schemas.microsoft.com/identity/claims/displayname',
  'urn:oid:2.16.840.1.113730.3.1.241',
];
const GIVEN_NAME_ATTRIBUTES = [
  'firstName',
  'givenName',
  'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/givenname',
  'urn:oid:2.5.4.42',
];
const SURNAME_ATTRIBUTES = [
  'lastName',
  'surname',
  'sn',
  'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/surname',
  'urn:oid:2.5.4.4',
];

/** What a login asks for beside the organization (contract §3.8). */
export interface LoginRequest {
  redirectUri: string | undefined;
  landingPage: string | undefined;
  duration: string | undefined;
}

/** A login that succeeded: the organization token with its session, and where the browser goes. */
export interface SsoLogin {
  issued: IssuedToken;
  organizationId: string;
  /** The console page the login started from (its origin is the console's). */
  redirectUri: string;
  /** `clitoken` logins show a CLI token of `durationSeconds` instead of opening the console. */
  landingPage: string | null;
  durationSeconds: number | null;
}

function firstText(value: unknown): string | null {
  const first = Array.isArray(value) ? value[0] : value;
  return typeof first === 'string' && first.trim() !== '' ? first.trim() : null;
}

function attribute(profile: Profile, names: readonly string[]): string | null {
  const attributes = (profile.attributes ?? {}) as Record<string, unknown>;
  for (const name of names) {
    const value = firstText(attributes[name]) ?? firstText(profile[name]);
    if (value) return value;
  }
  return null;
}

/** The person's address: an email attribute, else an email-format NameID. */
function emailOf(profile: Profile): string | null {
  const candidates = [
    attribute(profile, EMAIL_ATTRIBUTES),
    profile.nameIDFormat === EMAIL_NAME_ID || profile.nameID?.includes('@') ? profile.nameID : null,
  ];
  const email = candidates.find(
    (value): value is string => !!value && value.length <= MAX_LENGTH.email && isValidEmail(value),
  );
  return email ? email.toLowerCase() : null;
}

function nameOf(profile: Profile, email: string): string {
  const full =
    attribute(profile, NAME_ATTRIBUTES) ??
    [attribute(profile, GIVEN_NAME_ATTRIBUTES), attribute(profile, SURNAME_ATTRIBUTES)]
      .filter(Boolean)
      .join(' ');
  return (full || email.split('@')[0] || email).slice(0, 120);
}

const elements = (parent: Document | Element, namespace: string, name: string): Element[] =>
  Array.from(parent.getElementsByTagNameNS(namespace, name) as unknown as ArrayLike<Element>);

/** The latest moment the signed assertion names as the end of its validity, if any. */
function assertionEnd(assertion: Document): number | null {
  const ends = [
    ...elements(assertion, ASSERTION_NS, 'Conditions'),
    ...elements(assertion, ASSERTION_NS, 'SubjectConfirmationData'),
  ]
    .map((element) => Date.parse(element.getAttribute('NotOnOrAfter') ?? ''))
    .filter((time) => Number.isFinite(time));
  return ends.length ? Math.max(...ends) : null;
}

/**
 * SP-initiated SAML login (contract §3.8): the AuthnRequest (HTTP-Redirect binding) and the assertion
 * consumer (HTTP-POST). A response is taken only when node-saml finds it signed by the configuration's
 * stored IdP certificate (never a key inside the message: xml-crypto is given that certificate alone),
 * for this SP (audience), not expired beyond a minute's skew, answering a request of this organization's
 * still outstanding (InResponseTo, in the database) from the browser that started it; and when Berth
 * finds it addressed here (Destination, Recipient), from the configured IdP (Issuer), and never used
 * before (its response and assertion ids are kept until they expire).
 */
export function createSamlLoginService(deps: {
  db: Db;
  urls: FamilyUrls;
  configurations: SamlConfigurationsService;
  tokens: TokenService;
}) {
  const { db, urls, configurations, tokens } = deps;
  const unusablePassword = async () => hashPassword(randomBytes(32).toString('base64url'));

  function samlFor(row: SamlConfigurationRow, cache: ReturnType<typeof samlRequestCache>): SAML {
    const sp = serviceProviderUrls(urls, row.organizationId);
    const spKey = configurations.spPrivateKey(row);
    return new SAML({
      issuer: sp.entityId,
      callbackUrl: sp.acs,
      entryPoint: row.signInUrl,
      idpCert: row.certificate,
      audience: sp.entityId,
      // The assertion must always carry a valid signature of its own; a signed response around it is
      // checked as well when present.
      wantAssertionsSigned: true,
      wantAuthnResponseSigned: false,
      acceptedClockSkewMs: SAML_CLOCK_SKEW_MS,
      validateInResponseTo: ValidateInResponseTo.always,
      requestIdExpirationPeriodMs: SAML_REQUEST_TTL_MS,
      cacheProvider: cache,
      // AuthnRequests are signed with the organization's SP key (its certificate is in the SP metadata).
      privateKey: spKey,
      signatureAlgorithm: 'sha256',
      // Assertions an IdP encrypts to the SP certificate are opened with the same key.
      decryptionPvk: spKey,
      // Let the IdP choose the NameID format and how the person signs in: asking for one it does not
      // offer fails the login at some IdPs.
      identifierFormat: null,
      disableRequestedAuthnContext: true,
    });
  }

  /** The console page failures go to: same-origin with the console only, else the console's own. */
  function consolePage(redirectUri: string | undefined): string {
    const fallback = `${urls.app}/sso/failure`;
    if (!redirectUri || redirectUri.length > MAX_LENGTH.reference || !URL.canParse(redirectUri))
      return fallback;
    const target = new URL(redirectUri);
    return target.origin === new URL(urls.app).origin && !target.username && !target.password
      ? target.toString()
      : fallback;
  }

  /** A person with a pending, unexpired invitation to one of the organization's roles. */
  async function pendingInvitations(tx: DbOrTx, organizationId: string, email: string) {
    return tx
      .select({ id: invitations.id, roleId: invitations.roleId })
      .from(invitations)
      .innerJoin(roles, eq(invitations.roleId, roles.id))
      .where(
        and(
          eq(roles.organizationId, organizationId),
          sql`lower(${invitations.email}) = ${email}`,
          gt(invitations.codeExpiresAt, new Date()),
        ),
      );
  }

  async function deactivatedByProvisioning(tx: DbOrTx, organizationId: string, userId: string) {
    const [row] = await tx
      .select({ active: scimUsers.active })
      .from(scimUsers)
      .where(and(eq(scimUsers.organizationId, organizationId), eq(scimUsers.userId, userId)));
    return row?.active === false;
  }

  /**
   * Who the IdP vouched for, as a member of the organization: the person linked to this NameID before, or
   * the member with this address; an invited person with no account yet is made and becomes a member (their
   * invitations taken); with just-in-time provisioning a new person is made (verified, with no password
   * anyone knows) with the configuration's default role. An account that is no member is never taken over
   * by address, invited or not: an organization's IdP vouches for its own people only.
   */
  async function memberFor(row: SamlConfigurationRow, profile: Profile): Promise<UserRow> {
    const organizationId = row.organizationId;
    const nameId = profile.nameID?.trim();
    if (!nameId || nameId.length > MAX_LENGTH.reference) {
      throw new SsoFailure('invalid_credentials', 'the assertion has no NameID');
    }
    const password = await unusablePassword();
    return db.transaction(async (tx) => {
      const [linked] = await tx
        .select({ user: users })
        .from(samlIdentities)
        .innerJoin(users, eq(users.id, samlIdentities.userId))
        .where(and(eq(samlIdentities.organizationId, organizationId), eq(samlIdentities.nameId, nameId)));
      const email = emailOf(profile);
      let user: UserRow | undefined = linked?.user;
      if (!user) {
        if (!email) {
          throw new SsoFailure(
            'configuration_error',
            'the assertion carries no email address for a new NameID',
          );
        }
        [user] = await tx
          .select()
          .from(users)
          .where(eq(sql`lower(${users.email})`, email));
      }
      const member = user ? await isMemberOf(tx as Db, user.id, organizationId) : false;
      if (!member) {
        const invited = await pendingInvitations(
          tx,
          organizationId,
          (user?.email ?? email ?? '').toLowerCase(),
        );
        const defaultRoleId = row.jitEnabled ? row.defaultRoleId : null;
        const roleIds = invited.length
          ? invited.map((invitation) => invitation.roleId)
          : defaultRoleId
            ? [defaultRoleId]
            : [];
        if (roleIds.length === 0) {
          throw new SsoFailure(
            'access_denied',
            'not a member, not invited, and just-in-time provisioning is off',
          );
        }
        // One the organization's provisioning deactivated stays out until provisioning lets them back.
        if (user && (await deactivatedByProvisioning(tx, organizationId, user.id))) {
          throw new SsoFailure('access_denied', 'provisioning deactivated this person here');
        }
        // Never an account that exists and is no member, even an invited one: the organization's owner
        // both invites and runs the IdP, so an invitation plus an assertion would take any account whose
        // address they know. Its owner accepts the invitation with their own sign-in first.
        if (user && !linked) {
          throw new SsoFailure('access_denied', 'an account with this address exists and is not a member');
        }
        if (!user) {
          if (!email)
            throw new SsoFailure('configuration_error', 'no email address to create the member with');
          [user] = await tx
            .insert(users)
            .values({ name: nameOf(profile, email), email, passwordHash: password, verified: true })
            .returning();
          if (!user) throw new Error('User insert returned nothing');
        }
        const joined = user;
        const added = await tx
          .insert(memberships)
          .values(roleIds.map((roleId) => ({ userId: joined.id, roleId })))
          .onConflictDoNothing()
          .returning({ roleId: memberships.roleId });
        // Joining by single sign-on is the user's own act (issue 41): one event per role it gave them.
        const joinedRoles =
          added.length === 0
            ? []
            : await tx
                .select({ id: roles.id, name: roles.name })
                .from(roles)
                .where(
                  inArray(
                    roles.id,
                    added.map((row) => row.roleId),
                  ),
                );
        for (const role of joinedRoles) {
          await recordAuditEvent(tx, organizationId, {
            action: 'member.join',
            actor: { id: joined.id, email: joined.email },
            target: { type: 'member', id: joined.id, name: joined.email },
            parent: { type: 'role', id: role.id, name: role.name },
            detail: invited.length ? 'invitation accepted by single sign-on' : 'just-in-time provisioning',
          });
        }
        if (invited.length) {
          await tx.delete(invitations).where(
            inArray(
              invitations.id,
              invited.map((invitation) => invitation.id),
            ),
          );
        }
      }
      if (!user) throw new Error('SSO login resolved no user');
      if (!linked) {
        await tx
          .insert(samlIdentities)
          .values({ organizationId, nameId, userId: user.id })
          .onConflictDoNothing();
      }
      return user;
    });
  }

  /** Records the response and assertion ids as used; false when one of them was used before (a replay). */
  async function firstUse(organizationId: string, ids: string[], until: Date): Promise<boolean> {
    const inserted = await db
      .insert(samlUsedMessages)
      .values(ids.map((messageId) => ({ organizationId, messageId, expiresAt: until })))
      .onConflictDoNothing()
      .returning({ messageId: samlUsedMessages.messageId });
    return inserted.length === ids.length;
  }

  return {
    consolePage,

    /**
     * Starts a login: the IdP's sign-in URL with a signed AuthnRequest, and the secret of the cookie that
     * binds the answer to this browser. A failure names the console page to send the browser to.
     */
    async start(
      idOrHandle: string,
      request: LoginRequest,
    ): Promise<{ location: string; browserSecret: string; organizationId: string }> {
      const redirectUri = consolePage(request.redirectUri);
      const row = await configurations.byIdOrHandle(idOrHandle);
      if (!row)
        throw new SsoFailure(
          'configuration_error',
          'no SAML configuration for this organization',
          redirectUri,
        );
      const landingPage = request.landingPage === 'clitoken' ? 'clitoken' : null;
      const duration = Number.parseInt(request.duration ?? '', 10);
      const durationSeconds =
        landingPage && Number.isFinite(duration) && duration > 0
          ? Math.min(duration, CLI_TOKEN_MAX_SECONDS)
          : null;
      await sweepExpiredSaml(db);
      const browserSecret = randomBytes(32).toString('base64url');
      const cache = samlRequestCache(db, row.organizationId, {
        redirectUri,
        landingPage,
        durationSeconds,
        browserBindingHash: sha256Hex(browserSecret),
      });
      const location = await samlFor(row, cache).getAuthorizeUrlAsync('', undefined, {});
      return { location, browserSecret, organizationId: row.organizationId };
    },

    /**
     * The assertion consumer: checks the POSTed SAMLResponse as the service's comment says, and makes the
     * member's organization token. `browserSecret` is the SSO cookie's; `bindingRequired` whether it must
     * be there (it travels on a cross-site POST only as a Secure SameSite=None cookie, so over https).
     */
    async consume(
      organizationId: string,
      samlResponse: string,
      options: { browserSecret: string | undefined; bindingRequired: boolean; client: ClientInfo },
    ): Promise<SsoLogin> {
      const base64 = samlResponse.replace(/\s+/g, '');
      if (base64 === '' || !/^[A-Za-z0-9+/]+={0,2}$/.test(base64)) {
        throw new SsoFailure('invalid_credentials', 'SAMLResponse is not base64');
      }
      const xml = Buffer.from(base64, 'base64').toString('utf8');
      if (hasDoctype(xml)) throw new SsoFailure('invalid_credentials', 'the response carries a DTD');
      let document: Document;
      try {
        document = parseXml(xml, 'SAMLResponse');
      } catch (error) {
        throw new SsoFailure('invalid_credentials', (error as Error).message);
      }
      const root = document.documentElement;
      if (root.namespaceURI !== PROTOCOL_NS || root.localName !== 'Response') {
        throw new SsoFailure('invalid_credentials', 'not a SAML Response');
      }
      // An answer to no request of ours (IdP-initiated, or forged) is refused before anything else.
      const inResponseTo = root.getAttribute('InResponseTo') ?? '';
      const [pending] = inResponseTo
        ? await db
            .select()
            .from(samlRequests)
            .where(
              and(
                eq(samlRequests.id, inResponseTo),
                eq(samlRequests.organizationId, organizationId),
                gt(samlRequests.expiresAt, new Date()),
              ),
            )
        : [];
      if (!pending)
        throw new SsoFailure('csrf_detected', 'unsolicited response (unknown or missing InResponseTo)');
      const redirectUri = pending.redirectUri;
      const fail = (code: SsoFailureCode, reason: string) => new SsoFailure(code, reason, redirectUri);
      if (
        options.browserSecret === undefined
          ? options.bindingRequired
          : sha256Hex(options.browserSecret) !== pending.browserBindingHash
      ) {
        throw fail('csrf_detected', 'the response came back to another browser than the one that asked');
      }
      const row = await configurations.byIdOrHandle(organizationId);
      if (!row || row.organizationId !== organizationId) {
        throw fail('configuration_error', 'the SAML configuration was removed');
      }
      const sp = serviceProviderUrls(urls, organizationId);
      let profile: Profile | null;
      try {
        ({ profile } = await samlFor(row, samlRequestCache(db, organizationId)).validatePostResponseAsync({
          SAMLResponse: base64,
        }));
      } catch (error) {
        if (error instanceof SamlStatusError) throw fail('access_denied', error.message);
        const message = (error as Error).message ?? '';
        if (message.includes('InResponseTo')) throw fail('csrf_detected', message);
        throw fail('invalid_credentials', message);
      }
      if (!profile) throw fail('invalid_credentials', 'the response holds no assertion');
      if (profile.issuer !== row.entityId) {
        throw fail(
          'invalid_credentials',
          `the assertion's issuer is not the configured IdP (${row.entityId})`,
        );
      }
      if (root.getAttribute('Destination') !== sp.acs) {
        throw fail('invalid_credentials', 'the response is addressed to another destination');
      }
      // The signed assertion node-saml checked (never the rest of the message) is what is read here.
      const assertion = parseXml(profile.getAssertionXml?.() ?? '', 'Assertion');
      const recipients = elements(assertion, ASSERTION_NS, 'SubjectConfirmationData').map((data) =>
        data.getAttribute('Recipient'),
      );
      if (recipients.length === 0 || recipients.some((recipient) => recipient !== sp.acs)) {
        throw fail('invalid_credentials', 'the assertion names another recipient');
      }
      const assertionId = assertion.documentElement.getAttribute('ID') ?? '';
      const responseId = root.getAttribute('ID') ?? '';
      if (!assertionId || !responseId)
        throw fail('invalid_credentials', 'the response or assertion has no ID');
      const end = assertionEnd(assertion) ?? Date.now() + USED_MESSAGE_FALLBACK_MS;
      const used = !(await firstUse(
        organizationId,
        [`response:${responseId}`, `assertion:${assertionId}`],
        new Date(end + SAML_CLOCK_SKEW_MS),
      ));
      if (used) throw fail('invalid_credentials', 'the response was used before (replay)');
      const user = await memberFor(row, profile).catch((error: unknown) => {
        throw error instanceof SsoFailure ? fail(error.code, error.reason) : error;
      });
      const issued = await tokens.issue(user, 'manage', TOKEN_LIFETIME_SECONDS.session, {
        session: true,
        ssoOrganizationId: organizationId,
        client: options.client,
      });
      return {
        issued,
        organizationId,
        redirectUri,
        landingPage: pending.landingPage,
        durationSeconds: pending.durationSeconds === null ? null : Number(pending.durationSeconds),
      };
    },
  };
}
export type SamlLoginService = ReturnType<typeof createSamlLoginService>;
