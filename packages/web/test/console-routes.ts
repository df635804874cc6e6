import { billingDetailHal, stripeSourceHal } from './billing-fixtures.ts';
import { json } from './fetch-mock.ts';
import { collection, organizationHal, roleHal, stackHal, userHal } from './fixtures.ts';
import { homeHal } from './home-fixtures.ts';

export interface ConsoleState {
  user?: ReturnType<typeof userHal>;
  organizations?: ReturnType<typeof organizationHal>[];
  roles?: ReturnType<typeof roleHal>[];
  stacks?: ReturnType<typeof stackHal>[];
  environments?: unknown[];
}

/** The start-up calls of contract §7 (steps 2-7, as far as they exist) for a signed-in user. */
export function consoleRoutes(state: ConsoleState = {}) {
  const user = state.user ?? userHal();
  const organizations = state.organizations ?? [organizationHal()];
  const roles = state.roles ?? [roleHal()];
  const byOrganization = (organizationId: string) =>
    roles.filter((role) => role._links.organization.href.endsWith(`/${organizationId}`));
  return {
    [`GET /auth/users/${user.id}`]: () => json(200, user),
    'GET /auth/organizations': () => json(200, collection('organizations', organizations)),
    ...Object.fromEntries(
      organizations.map((organization) => [
        `GET /auth/organizations/${organization.id}/roles`,
        () => json(200, collection('roles', byOrganization(organization.id))),
      ]),
    ),
    [`GET /auth/users/${user.id}/roles`]: () => json(200, collection('roles', roles)),
    'GET /api/stacks': () => json(200, collection('stacks', state.stacks ?? [stackHal({ isDefault: true })])),
    'GET /api/accounts': () => json(200, collection('accounts', state.environments ?? [])),
    // Step 7 lists and step 8 costs, empty unless a test answers them itself.
    'GET /api/apps': () => json(200, collection('apps', [])),
    'GET /api/services': () => json(200, collection('services', [])),
    'GET /api/vhosts': () => json(200, collection('vhosts', [])),
    'GET /api/deployments': () => json(200, collection('deployments', [])),
    'GET /api/sources': () => json(200, collection('sources', [])),
    'GET /api/databases': () => json(200, collection('databases', [])),
    'GET /api/service_sizing_policies': () => json(200, collection('service_sizing_policies', [])),
    'GET /api/manual_service_sizing_recommendations': () =>
      json(200, collection('manual_service_sizing_recommendations', [])),
    ...Object.fromEntries(
      organizations.flatMap((organization) => [
        [
          `GET /api/organizations/${organization.id}/operations`,
          () => json(200, collection('operations', [])),
        ],
        // Home, where a signed-in user with an organization lands (issue 38): empty.
        [`GET /api/organizations/${organization.id}/home`, () => json(200, homeHal(organization.id))],
        // contract §7 steps 4 and 9: a billing detail with a payment method (no redirect to Plans).
        [
          `GET /billing/billing_details/${organization.id}`,
          () => json(200, billingDetailHal({ id: organization.id })),
        ],
        [
          `GET /billing/billing_details/${organization.id}/stripe_sources`,
          () =>
            json(200, collection('stripe_sources', [stripeSourceHal({ billingDetailId: organization.id })])),
        ],
        [`GET /billing/billing_details/${organization.id}/trials`, () => json(200, collection('trials', []))],
        ...['stacks', 'accounts', 'apps', 'databases', 'services'].map((list) => [
          `GET /api/costs/${organization.id}/${list}`,
          () => json(200, collection('costs', [])),
        ]),
      ]),
    ),
  };
}
