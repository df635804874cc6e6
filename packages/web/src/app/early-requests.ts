import { idFromHref, type TokenResource } from '@berth/core';
import { requestEarly, type ServiceFamily } from '../lib/api-client.ts';
import { paths } from '../lib/paths.ts';
import { startupPaths } from '../lib/startup-paths.ts';

/** A list page's rows, which need nothing of the required data to be asked for. */
const PAGE_LISTS: Record<string, string> = {
  [paths.apps]: startupPaths.apps,
  [paths.services]: startupPaths.services,
  [paths.databases]: startupPaths.databases,
};

/**
 * The session check, then contract §7's required data (user, organizations, roles, stacks,
 * environments) and an opened list page's own rows, sent as the console starts: before its code has
 * loaded, instead of once each page has drawn. The console's own calls take these answers (see
 * requestEarly), so nothing is asked twice; without a session only the check is sent, as always.
 */
export function startEarlyRequests(pathname: string): void {
  requestEarly('auth', startupPaths.currentToken, null)
    .then(async (response) => {
      if (!response.ok) return;
      const token = (await response.json()) as TokenResource;
      const userId = idFromHref(token._links?.user?.href ?? '');
      if (!userId || typeof token.access_token !== 'string') return;
      const requests: [ServiceFamily, string][] = [
        ['auth', startupPaths.user(userId)],
        ['auth', startupPaths.organizations],
        ['auth', startupPaths.userRoles(userId)],
        ['api', startupPaths.stacks],
        ['api', startupPaths.environments],
      ];
      const pageList = PAGE_LISTS[pathname.replace(/\/+$/, '') || '/'];
      if (pageList) requests.push(['api', pageList]);
      for (const [family, path] of requests) {
        requestEarly(family, path, token.access_token).catch(() => {});
      }
    })
    // Only a head start: the console asks again itself when an early call failed.
    .catch(() => {});
}
