import {
  impersonationMessages,
  personalAccessTokenMessages,
  verificationMessages,
  WRITE_SCOPES,
} from '@berth/core';
import type { FastifyRequest } from 'fastify';
import type { Caller, TokenService } from '../auth/tokens/token.service.ts';
import { forbidden, unauthorized } from './errors.ts';

// Routes state their access in their options, which the family's hook and `requireCaller` both read.
declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route answers without a signed-in caller (sign-up, sign-in, public documents). */
    public?: boolean;
    /** What the route asks of its caller beyond a valid token; see CallerOptions. */
    caller?: CallerOptions;
  }
}

export interface CallerOptions {
  /** The call needs a token with scope elevated (contract §3.6). */
  elevated?: boolean;
  /** Allowed to read-only sessions too (logging out is not a write to any resource). */
  anyScope?: boolean;
  /**
   * Allowed before the user's email address is verified: only what sign-up and verification need.
   * Every other write is refused until then, so a new route is safe without thinking about it.
   */
  allowUnverified?: boolean;
}

/** 403 for a write from an account whose address is not verified yet. */
export const verifyFirst = () => forbidden(verificationMessages.required, 'email_not_verified');

// One list with the console (contract §3): `privileged` is never issued here but counts as write access.
const writeScopes = new Set<string>(WRITE_SCOPES);

/** Resolves the caller of a request from its bearer token, once per request. */
export function createAuthGuard(tokens: TokenService) {
  const resolved = new WeakMap<FastifyRequest, Promise<Caller | null>>();

  function bearer(request: FastifyRequest): string | null {
    const header = request.headers.authorization;
    if (!header) return null;
    // A prefix test and a slice: the obvious /^Bearer\s+(.+)$/ backtracks on a long run of spaces.
    if (!/^bearer\s/i.test(header)) return null;
    return header.slice(7).trim() || null;
  }

  function optionalCaller(request: FastifyRequest): Promise<Caller | null> {
    let pending = resolved.get(request);
    if (!pending) {
      const token = bearer(request);
      pending = token ? tokens.authenticate(token) : Promise.resolve(null);
      // Every request made while impersonating is logged with both users (spec 1 §6: staff access).
      pending = pending.then((caller) => {
        if (caller?.token.actorId) {
          request.log.info(
            {
              impersonation: {
                actorId: caller.token.actorId,
                userId: caller.user.id,
                tokenId: caller.token.id,
                scope: caller.token.scope,
              },
            },
            'impersonated request',
          );
        }
        return caller;
      });
      resolved.set(request, pending);
    }
    return pending;
  }

  // A route states what it asks of its caller once, in its `caller` option; a handler may still pass its own.
  async function requireCaller(
    request: FastifyRequest,
    options: CallerOptions = request.routeOptions.config.caller ?? {},
  ): Promise<Caller> {
    const caller = await optionalCaller(request);
    if (!caller) throw unauthorized();
    const writing = request.method !== 'GET' && request.method !== 'HEAD';
    if (writing && !options.anyScope && !writeScopes.has(caller.token.scope)) {
      throw forbidden(
        caller.token.actorId
          ? impersonationMessages.readOnlySession
          : caller.token.name !== null
            ? personalAccessTokenMessages.readOnly
            : 'This session is read-only',
        'access_denied',
      );
    }
    if (options.elevated && caller.token.scope !== 'elevated') {
      throw forbidden('Re-enter your credentials to continue', 'access_denied');
    }
    // The user row is loaded with the token on every request, so `verified` is current and costs no query.
    if (writing && !options.allowUnverified && !caller.user.verified) throw verifyFirst();
    return caller;
  }

  return { optionalCaller, requireCaller };
}
export type AuthGuard = ReturnType<typeof createAuthGuard>;
