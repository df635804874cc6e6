import { bigserial, index, integer, jsonb, pgTable, text } from 'drizzle-orm/pg-core';
import { timestamps } from './common.ts';
import { stacks } from './environments.ts';

/**
 * A stack's VPN tunnels (contract §4.3 vpn_tunnel). Support sets them up on request (spec 2 §6) and
 * records them here; the stack's VPN Tunnels tab lists them.
 */
export const vpnTunnels = pgTable(
  'vpn_tunnels',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    stackId: integer('stack_id')
      .notNull()
      .references(() => stacks.id, { onDelete: 'cascade' }),
    handle: text('handle').notNull(),
    phase1Alg: text('phase_1_alg').notNull().default(''),
    phase1DhGroup: text('phase_1_dh_group').notNull().default(''),
    phase1Lifetime: text('phase_1_lifetime').notNull().default(''),
    phase2Alg: text('phase_2_alg').notNull().default(''),
    phase2DhGroup: text('phase_2_dh_group').notNull().default(''),
    phase2Lifetime: text('phase_2_lifetime').notNull().default(''),
    perfectForwardSecrecy: text('perfect_forward_secrecy').notNull().default(''),
    auto: text('auto').notNull().default(''),
    ourGateway: text('our_gateway').notNull().default(''),
    peerGateway: text('peer_gateway').notNull().default(''),
    ourNetworks: jsonb('our_networks').$type<string[]>().notNull().default([]),
    peerNetworks: jsonb('peer_networks').$type<string[]>().notNull().default([]),
    /** `up`, `down`, `partial` or `unknown`. */
    state: text('state').notNull().default('unknown'),
    /** What the tunnel last reported (contract §4.3 tunnel_attributes); null until it has. */
    tunnelAttributes: jsonb('tunnel_attributes').$type<Record<string, unknown>>(),
    ...timestamps,
  },
  (table) => [index('vpn_tunnels_stack_idx').on(table.stackId, table.id)],
);

/** A stack's VPC peering connections (contract §4.3 vpc_peer), recorded by support as tunnels are. */
export const vpcPeers = pgTable(
  'vpc_peers',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    stackId: integer('stack_id')
      .notNull()
      .references(() => stacks.id, { onDelete: 'cascade' }),
    connectionId: text('connection_id').notNull().default(''),
    connectionStatus: text('connection_status').notNull().default('pending'),
    description: text('description').notNull().default(''),
    peerAccountId: text('peer_account_id').notNull().default(''),
    peerVpcId: text('peer_vpc_id').notNull().default(''),
    ...timestamps,
  },
  (table) => [index('vpc_peers_stack_idx').on(table.stackId, table.id)],
);
