import { createHash } from 'node:crypto';
import helmet from '@fastify/helmet';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import helmetMiddleware from 'helmet';

type Directives = Record<string, string[]>;

/** What else the console loads: Stripe.js and its frames with BERTH_PAYMENTS=stripe (issue 37). */
export interface ConsoleSources {
  stripe?: boolean;
}

/** The origins Stripe.js documents for its script, its frames and its API. */
const STRIPE_SOURCES = {
  script: ['https://js.stripe.com'],
  frame: ['https://js.stripe.com', 'https://hooks.stripe.com'],
  connect: ['https://api.stripe.com'],
} as const;

/**
 * The console's Content-Security-Policy: everything from this origin, nothing inline. The built console
 * (packages/web/dist) is module scripts and stylesheets from /assets, the favicon and fetches to the
 * service families named by /config.json, which live under the public URL (same-origin unless the
 * console is reached under another name, so that origin is allowed to be fetched too). React's `style`
 * props are set through the CSSOM, which the policy does not govern; style attributes in markup are.
 */
export function consoleDirectives(
  publicUrl: string,
  scriptSources: string[] = [],
  options: ConsoleSources = {},
): Directives {
  const publicOrigin = new URL(publicUrl).origin;
  const stripe = options.stripe ?? false;
  return {
    'default-src': ["'self'"],
    'base-uri': ["'none'"],
    'connect-src': ["'self'", publicOrigin, ...(stripe ? STRIPE_SOURCES.connect : [])],
    'font-src': ["'self'"],
    'form-action': ["'self'"],
    'frame-ancestors': ["'none'"],
    // The Invoices screen frames the billing family's invoice portal (issue 37); Stripe's card field is a frame.
    'frame-src': ["'self'", publicOrigin, ...(stripe ? STRIPE_SOURCES.frame : [])],
    // data: for images the console draws itself (the 2FA setup QR code); no script runs from them.
    'img-src': ["'self'", 'data:'],
    'object-src': ["'none'"],
    // With the hashes of the scripts the console's page carries inline (see consoleDocument), and Stripe.js
    // when payments go through Stripe (spec 1 §7: the card token comes from the provider's script).
    'script-src': ["'self'", ...scriptSources, ...(stripe ? STRIPE_SOURCES.script : [])],
    'script-src-attr': ["'none'"],
    'style-src': ["'self'"],
    // The page's start script starts its worker from a blob of its own code (packages/web/src/app/
    // early-start.ts): only a script the policy already runs can make one.
    'worker-src': ["'self'", 'blob:'],
    ...(publicUrl.startsWith('https://') ? { 'upgrade-insecure-requests': [] } : {}),
  };
}

/** The headers' settings: helmet's defaults, with the console's CSP, DENY and no referrer. */
export function securityHeaderOptions(
  publicUrl: string,
  scriptSources: string[] = [],
  sources: ConsoleSources = {},
) {
  return {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: consoleDirectives(publicUrl, scriptSources, sources),
    },
    frameguard: { action: 'deny' as const },
    referrerPolicy: { policy: 'no-referrer' as const },
    // Only meaningful (and only honoured by browsers) over HTTPS.
    strictTransportSecurity: publicUrl.startsWith('https://'),
  };
}

/**
 * Sets the security headers on an answer no hook sees (what the router refuses before any route, see
 * app.ts's `frameworkErrors`).
 */
export function securityHeadersSetter(
  publicUrl: string,
  scriptSources: string[] = [],
  sources: ConsoleSources = {},
) {
  const middleware = helmetMiddleware(securityHeaderOptions(publicUrl, scriptSources, sources));
  return (request: FastifyRequest, reply: FastifyReply) => {
    middleware(request.raw, reply.raw, () => {});
  };
}

/**
 * Security headers on every answer, the console's pages and JSON alike (errors and 404s included): the
 * console's CSP, `X-Frame-Options: DENY`, `X-Content-Type-Options: nosniff`, `Referrer-Policy:
 * no-referrer` and helmet's other defaults. Register it before any hook that may answer early (CORS
 * preflights): helmet sets the headers in an onRequest hook. A route may set its own policy with its
 * `helmet` option (see the dev mailbox).
 */
export async function securityHeaders(
  app: FastifyInstance,
  options: { publicUrl: string; scriptSources?: string[]; sources?: ConsoleSources },
) {
  await app.register(helmet, {
    global: true,
    ...securityHeaderOptions(options.publicUrl, options.scriptSources, options.sources),
  });
}

/**
 * The `helmet` route option of a server-rendered page whose only inline content is one stylesheet:
 * nothing may load but that stylesheet (allowed by its hash) and links followed.
 */
export function inlineStylePage(css: string) {
  const hash = createHash('sha256').update(css, 'utf8').digest('base64');
  return {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        'default-src': ["'none'"],
        'base-uri': ["'none'"],
        'form-action': ["'none'"],
        'frame-ancestors': ["'none'"],
        'style-src': [`'sha256-${hash}'`],
      },
    },
  };
}
