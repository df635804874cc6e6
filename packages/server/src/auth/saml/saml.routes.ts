import { noContent, SAML_METADATA_BASE64_MAX_LENGTH } from '@berth/core';
import { SAML } from '@node-saml/node-saml';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { FamilyUrls } from '../../config.ts';
import { notFound } from '../../http/errors.ts';
import { idParams, queryValue } from '../../http/route-schemas.ts';
import { responses } from '../../http/schema-first.ts';
import type { RateLimiter } from '../rate-limit.ts';
import type { IssuedToken } from '../tokens/token.service.ts';
import { SESSION_COOKIE, SIGNED_IN_COOKIE } from '../tokens/tokens.routes.ts';
import { serviceProviderUrls } from './saml-configurations.hal.ts';
import type { SamlConfigurationsService } from './saml-configurations.service.ts';
import { type SamlLoginService, SsoFailure, type SsoLogin } from './saml-login.service.ts';
import { SAML_REQUEST_TTL_MS } from './saml-request-cache.ts';

/** The cookie binding a login's answer to the browser that started it (its secret's hash is stored). */
export const SSO_BINDING_COOKIE = 'berth_sso_binding';
/** The largest ACS POST taken: a response of the largest metadata's size, base64, in a form. */
const ACS_BODY_LIMIT = SAML_METADATA_BASE64_MAX_LENGTH + 16 * 1024;

export interface SamlRoutesDeps {
  urls: FamilyUrls;
  secureCookies: boolean;
  samlConfigurations: SamlConfigurationsService;
  samlLogin: SamlLoginService;
  /**
   * The CLI token landing (`landing_page=clitoken`, spec 3 "CLI token"): given the finished login, answers
   * the browser with the page that hands the CLI its token. Without it such a login opens the console.
   */
  cliLanding?: (request: FastifyRequest, reply: FastifyReply, login: SsoLogin) => Promise<unknown>;
  /**
   * Login starts per client address: each one is public and keeps a request id in the database, so a
   * flood of them must not grow that table (or hold up the other organizations' logins) without bound.
   */
  loginLimiter: RateLimiter;
}

/** A redirect's answer: no body, a `Location`. */
const redirect = (description: string) => noContent.describe(description);

const loginQuery = z.looseObject({
  redirect_uri: queryValue.optional(),
  landing_page: queryValue.optional(),
  duration: queryValue.optional(),
});

/**
 * The SAML browser navigations (contract §3.8): SP-initiated login, the assertion consumer and the SP
 * metadata, under `/organizations/:id/saml` (`:id` an organization id, or a handle for the login).
 */
export async function samlRoutes(fastify: FastifyInstance, deps: SamlRoutesDeps) {
  const { urls, samlConfigurations, samlLogin } = deps;
  const tags = ['Single sign-on'];

  const cookieBase = (organizationId: string, maxAge: number) =>
    ({
      path: `/auth/organizations/${organizationId}/saml`,
      httpOnly: true,
      secure: deps.secureCookies,
      // The IdP's POST back is cross-site: only a Secure SameSite=None cookie travels with it.
      sameSite: deps.secureCookies ? 'none' : 'lax',
      maxAge,
    }) as const;

  function setSession(reply: FastifyReply, issued: IssuedToken) {
    if (!issued.sessionCookie) return;
    const maxAge = Math.floor((issued.token.expiresAt.getTime() - Date.now()) / 1000);
    const options = { httpOnly: true, secure: deps.secureCookies, sameSite: 'lax', maxAge } as const;
    reply.setCookie(SESSION_COOKIE, issued.sessionCookie, { ...options, path: '/auth' });
    reply.setCookie(SIGNED_IN_COOKIE, '1', { ...options, path: '/' });
  }

  /** spec 1 §8: the console's failure page with the code (contract §3.8: `redirect_uri?message=`). */
  function failureLocation(redirectUri: string | undefined, code: string): string {
    const target = new URL(samlLogin.consolePage(redirectUri));
    target.searchParams.set('message', code);
    return target.toString();
  }

  function logFailure(request: FastifyRequest, failure: SsoFailure) {
    request.log.warn(
      { sso: { code: failure.code, reason: failure.reason.slice(0, 300) } },
      'SSO login refused',
    );
  }

  await fastify.register(async (saml) => {
    const app = saml.withTypeProvider<ZodTypeProvider>();
    // The IdP POSTs a form (HTTP-POST binding); nowhere else does Berth read one.
    saml.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string', bodyLimit: ACS_BODY_LIMIT },
      (_request, body, done) => {
        const fields: Record<string, string> = {};
        for (const [key, value] of new URLSearchParams(
          typeof body === 'string' ? body : body.toString('utf8'),
        )) {
          if (key === 'SAMLResponse' || key === 'RelayState') fields[key] = value;
        }
        done(null, fields);
      },
    );

    app.get(
      '/organizations/:id/saml/login',
      {
        config: { public: true },
        schema: {
          tags,
          summary:
            'Start SP-initiated SAML login (a browser navigation): to the IdP, or back to `redirect_uri?message=`',
          params: idParams,
          querystring: loginQuery,
          response: responses({
            302: redirect('To the IdP’s sign-in URL, or to `redirect_uri?message=<code>`'),
          }),
        },
      },
      async (request, reply) => {
        const { query } = request;
        await deps.loginLimiter.hit(request.ip);
        try {
          const started = await samlLogin.start(request.params.id, {
            redirectUri: query.redirect_uri,
            landingPage: query.landing_page,
            duration: query.duration,
          });
          reply.setCookie(
            SSO_BINDING_COOKIE,
            started.browserSecret,
            cookieBase(started.organizationId, SAML_REQUEST_TTL_MS / 1000),
          );
          return reply.redirect(started.location, 302);
        } catch (error) {
          if (!(error instanceof SsoFailure)) throw error;
          logFailure(request, error);
          return reply.redirect(failureLocation(error.redirectUri ?? query.redirect_uri, error.code), 302);
        }
      },
    );

    app.post(
      '/organizations/:id/saml/consume',
      {
        bodyLimit: ACS_BODY_LIMIT,
        config: { public: true, maxBodyString: ACS_BODY_LIMIT },
        schema: {
          tags,
          summary: 'The SAML assertion consumer (HTTP-POST binding): a form with `SAMLResponse`',
          params: idParams,
          response: responses({
            303: redirect('To the console signed in, or to its failure page with `message=<code>`'),
          }),
        },
        // A body refused before the handler (too large, not a form) still sends the browser back.
        errorHandler: (error, request, reply) => {
          request.log.warn(
            { sso: { code: 'invalid_credentials', reason: error.message } },
            'SSO login refused',
          );
          return reply.redirect(failureLocation(undefined, 'invalid_credentials'), 303);
        },
      },
      async (request, reply) => {
        const organizationId = request.params.id;
        const body = (request.body ?? {}) as { SAMLResponse?: unknown };
        reply.setCookie(SSO_BINDING_COOKIE, '', cookieBase(organizationId, 0));
        try {
          if (typeof body.SAMLResponse !== 'string') {
            throw new SsoFailure('invalid_credentials', 'no SAMLResponse in the form');
          }
          const login = await samlLogin.consume(organizationId, body.SAMLResponse, {
            browserSecret: request.cookies[SSO_BINDING_COOKIE] || undefined,
            bindingRequired: deps.secureCookies,
            client: { userAgent: request.headers['user-agent'], ip: request.ip },
          });
          request.log.info(
            { sso: { organizationId, userId: login.issued.user.id, tokenId: login.issued.token.id } },
            'SSO login',
          );
          if (login.landingPage === 'clitoken' && deps.cliLanding) {
            await deps.cliLanding(request, reply, login);
            return reply;
          }
          setSession(reply, login.issued);
          return reply.redirect(`${new URL(login.redirectUri).origin}/`, 303);
        } catch (error) {
          if (!(error instanceof SsoFailure)) throw error;
          logFailure(request, error);
          return reply.redirect(failureLocation(error.redirectUri, error.code), 303);
        }
      },
    );

    app.get(
      '/organizations/:id/saml/metadata',
      {
        config: { public: true },
        schema: {
          tags,
          summary:
            'The SP metadata an organization’s IdP is given: entity ID (audience), ACS URL, certificate',
          params: idParams,
          response: responses({
            200: {
              content: {
                'application/samlmetadata+xml': { schema: z.string().max(64 * 1024, { abort: true }) },
              },
            },
          }),
        },
      },
      async (request, reply) => {
        const row = await samlConfigurations.byIdOrHandle(request.params.id);
        if (!row || row.organizationId !== request.params.id) throw notFound('SAML configuration');
        const sp = serviceProviderUrls(urls, row.organizationId);
        const spKey = samlConfigurations.spPrivateKey(row);
        // One key pair signs AuthnRequests and decrypts assertions an IdP encrypts to its certificate.
        const xml = new SAML({
          issuer: sp.entityId,
          callbackUrl: sp.acs,
          idpCert: row.certificate,
          privateKey: spKey,
          decryptionPvk: spKey,
          wantAssertionsSigned: true,
          identifierFormat: null,
        }).generateServiceProviderMetadata(row.spCertificate, row.spCertificate);
        return reply
          .header('content-type', 'application/samlmetadata+xml; charset=utf-8')
          .header('cache-control', 'no-cache')
          .send(xml);
      },
    );
  });
}
