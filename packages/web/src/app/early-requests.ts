import { idFromHref, type OrganizationCollection, type TokenResource, type UserResource } from '@berth/core';
import { billingDetailPath } from '../features/billing/api/billing.ts';
import { activityPagePath, NO_OPERATION_FILTERS } from '../features/operations/api/operation-filters.ts';
import { setRuntimeConfig } from '../lib/config.ts';
import {
  type EarlySender,
  type EarlyWorkerMessage,
  type EarlyWorkerStart,
  earlyGeneration,
  pageSender,
  workerSender,
} from '../lib/early-answers.ts';
import { embeddedList } from '../lib/hal.ts';
import { paths } from '../lib/paths.ts';
import { startupPaths } from '../lib/startup-paths.ts';
import {
  consoleOrganization,
  fromOrganizationResource,
} from '../resources/organizations/organization.hal.ts';
import { fromUserResource } from '../resources/users/user.hal.ts';

/** A list page's rows: their address needs nothing but the bearer (they are asked for after the shell's calls). */
const PAGE_LISTS: Record<string, string> = {
  [paths.apps]: startupPaths.apps,
  [paths.services]: startupPaths.services,
  [paths.databases]: startupPaths.databases,
};

const pathOf = (pathname: string) => pathname.replace(/\/+$/, '') || '/';

/**
 * The session check, then contract §7's required data (user, organizations, roles, stacks,
 * environments, and once the user and organizations are in, the selected organization's roles and
 * billing detail) and last an opened list page's own rows, sent as the console starts: before its code has
 * loaded, instead of once each page has drawn. The console's own calls take these answers (see requestEarly
 * and takeWorkerAnswers), so nothing is
 * asked twice; without a session only the check is sent, as always. The page's start script runs this
 * chain in a worker (app/early-worker.ts), where each next step leaves as soon as the answer it needs has
 * arrived, without waiting for the page's main thread, busy compiling the console's code.
 */
export async function sendEarlyRequests(
  location: { pathname: string; search: string },
  sender: EarlySender,
): Promise<void> {
  try {
    const session = await sender.read('auth', startupPaths.currentToken, null);
    if (!session.ok) return;
    const token = (await session.json()) as TokenResource;
    const userId = idFromHref(token._links?.user?.href ?? '');
    const bearer = token.access_token;
    if (!userId || typeof bearer !== 'string') return;
    const user = sender.read('auth', startupPaths.user(userId), bearer);
    const organizations = sender.read('auth', startupPaths.organizations, bearer);
    for (const [family, path] of [
      ['auth', startupPaths.userRoles(userId)],
      ['api', startupPaths.stacks],
      ['api', startupPaths.environments],
    ] as const) {
      sender.send(family, path, bearer);
    }
    sender.release();
    const [userAnswer, organizationsAnswer] = await Promise.all([user, organizations]);
    await selectedOrganizationRequests(userAnswer, organizationsAnswer, bearer, sender, location);
    // The page's rows last: a server answers the shell's small calls (the organization's roles and
    // billing detail, which no page shows before) ahead of a list of 5,000 that would hold them up.
    const pageList = PAGE_LISTS[pathOf(location.pathname)];
    if (pageList) sender.send('api', pageList, bearer);
  } finally {
    sender.finish();
  }
}

/** The start worker's global scope, as much of it as the worker uses (a test passes its own). */
export interface EarlyWorkerScope {
  addEventListener(
    type: 'message',
    listener: (event: MessageEvent<EarlyWorkerStart>) => void,
    options: { once: true },
  ): void;
  postMessage(message: EarlyWorkerMessage, options: { transfer: Transferable[] }): void;
  close(): void;
}

/**
 * What the start worker does (app/early-worker.ts): takes the page's start message, sends the chain, tells
 * the page what it sent and what came back, and closes once all is posted.
 */
export function serveEarlyStart(scope: EarlyWorkerScope): void {
  scope.addEventListener(
    'message',
    (event) => {
      setRuntimeConfig(event.data.config);
      const sender = workerSender(
        (message, transfer = []) => scope.postMessage(message, { transfer }),
        () => scope.close(),
      );
      sendEarlyRequests(event.data.location, sender).catch(() => {});
    },
    { once: true },
  );
}

/** The chain sent from the page itself (main.tsx, when the page's start script did not run). */
export function startEarlyRequests(location: { pathname: string; search: string }): void {
  // Every call of the chain belongs to this generation: one sent after a write is not kept.
  // Only a head start: the console asks again itself when an early call failed.
  sendEarlyRequests(location, pageSender(earlyGeneration())).catch(() => {});
}

/**
 * The selected organization's roles and billing detail, and the first page of its activity when that is
 * the page opened.
 */
async function selectedOrganizationRequests(
  user: Response,
  organizations: Response,
  bearer: string,
  sender: EarlySender,
  location: { pathname: string; search: string },
): Promise<void> {
  if (!user.ok || !organizations.ok) return;
  const { selectedOrganizationId } = fromUserResource((await user.json()) as UserResource);
  const list = embeddedList((await organizations.json()) as OrganizationCollection, 'organizations');
  const organization = consoleOrganization(list.map(fromOrganizationResource), selectedOrganizationId);
  // One that needs a new sign-in answers 403 to this session: the console asks nothing of it either.
  if (!organization || organization.reauthRequired) return;
  sender.send('auth', startupPaths.organizationRoles(organization.id), bearer);
  // Contract §7 step 4: no page shows before the billing detail has answered (PaymentMethodGuard).
  if (organization.billingDetailId) {
    sender.send('billing', billingDetailPath(organization.billingDetailId), bearer);
  }
  // The plain Activity page: its first page, unfiltered (a filtered one is asked for by the page).
  if (pathOf(location.pathname) === paths.activity && location.search === '') {
    const operations = `/organizations/${organization.id}/operations`;
    sender.send('api', activityPagePath(operations, 1, NO_OPERATION_FILTERS, Date.now()), bearer);
  }
}
