import { z } from 'zod';
import { halCollection, halId, halLinks, isoTimestamp } from '../hal/hal.ts';

/** The DNS records a managed HTTPS endpoint needs before its certificate can be issued (contract §4.3). */
export const acmeConfiguration = z
  .strictObject({
    names: z.array(z.string()),
    challenges: z.array(
      z.strictObject({
        method: z.string(),
        from: z.strictObject({ name: z.string() }),
        to: z.array(z.strictObject({ name: z.string(), legacy: z.boolean() })),
      }),
    ),
  })
  .meta({ id: 'AcmeConfiguration' });

/**
 * Contract §4.3 vhost (an endpoint on the wire). Hostnames are null until it is provisioned; the token
 * header is absent when unset and masked for callers without the sensitive scope. Berth adds
 * `load_balancing_algorithm_type` and the app or database behind the service (`resource_*`, "" when none).
 */
export const vhostResource = z
  .strictObject({
    id: halId,
    _type: z.literal('vhost'),
    type: z.string(),
    platform: z.string(),
    status: z.string(),
    default: z.boolean(),
    acme: z.boolean(),
    acme_status: z.string(),
    acme_configuration: acmeConfiguration.nullable(),
    acme_dns_challenge_host: z.string(),
    internal: z.boolean(),
    shared: z.boolean(),
    ip_whitelist: z.array(z.string()),
    container_port: z.string().nullable(),
    container_ports: z.array(z.number().int()),
    container_exposed_ports: z.null(),
    user_domain: z.string(),
    virtual_domain: z.string(),
    external_host: z.string().nullable(),
    external_http_port: z.string().nullable(),
    external_https_port: z.string().nullable(),
    docker_name: z.string().nullable(),
    elastic_load_balancer_name: z.string().nullable(),
    internal_host: z.string().nullable(),
    internal_http_port: z.null(),
    internal_https_port: z.null(),
    internal_health_port: z.null(),
    security_group_id: z.string(),
    load_balancing_algorithm_type: z.string(),
    resource_type: z.enum(['app', 'database', '']),
    resource_id: z.string(),
    resource_handle: z.string(),
    token_header: z.string().optional(),
    created_at: isoTimestamp,
    updated_at: isoTimestamp,
    _links: halLinks(['self', 'service', 'account', 'operations'], ['app', 'database', 'certificate']),
  })
  .meta({ id: 'Vhost' });
export type VhostResource = z.infer<typeof vhostResource>;

export const vhostCollection = halCollection('vhosts', vhostResource).meta({ id: 'VhostCollection' });
export type VhostCollection = z.infer<typeof vhostCollection>;
