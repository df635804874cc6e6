import type { HomeResource } from '@berth/core';
import { TEST_CONFIG } from './fixtures.ts';

// The home dashboard's server answer (GET /organizations/:id/home), typed by core's wire shape.

export type HomeFixture = Partial<Omit<HomeResource, '_links' | '_embedded'>> & {
  activities?: HomeResource['_embedded']['activities'];
};

/** An organization's home; by default an empty one, to a caller without Full Visibility. */
export function homeHal(organizationId = 'org-1', fields: HomeFixture = {}): HomeResource {
  const { activities = [], ...rest } = fields;
  const self = `${TEST_CONFIG.apiUrl}/organizations/${organizationId}/home`;
  return {
    id: organizationId,
    _type: 'home',
    counts: { dedicated_stacks: 0, environments: 0, apps: 0, databases: 0 },
    estimated_monthly_cost: 0,
    scaling: {
      services: 0,
      containers: 0,
      container_memory_mb: 0,
      autoscaling_services: 0,
      horizontal_autoscaling_services: 0,
      vertical_autoscaling_services: 0,
      scale_down_services: 0,
      scale_up_services: 0,
      potential_savings: 0,
    },
    top_source: null,
    security: null,
    feedback_banner_dismissed: false,
    ...rest,
    _embedded: { activities },
    _links: {
      self: { href: self },
      organization: { href: `${TEST_CONFIG.authUrl}/organizations/${organizationId}` },
      operations: { href: `${TEST_CONFIG.apiUrl}/organizations/${organizationId}/operations` },
      feedback_banner: { href: `${self}/feedback_banner` },
    },
  };
}
