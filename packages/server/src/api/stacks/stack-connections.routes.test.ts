import { hidsMessages } from '@berth/core';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { environments, stacks, vpcPeers, vpnTunnels } from '../../db/schema.ts';
import { environmentSuite, expectAccess } from '../../testing/environment-fixture.ts';
import { addMember, grant } from '../../testing/factories.ts';
import type { TestUser } from '../../testing/test-app.ts';

// spec 2 §2 the stack page's tabs (contract §5.6): VPN tunnels, VPC peers and Managed HIDS reports.
const { t, f } = await environmentSuite();
const api = 'http://berth.test/api';
let sharedId: number;
let dedicatedId: number;
let foreignId: number;
let exposingId: number;
/** A member with a permission on an environment of the dedicated stack (and on nothing else). */
let dedicatedMember: TestUser;

beforeAll(async () => {
  const [shared] = await t.db.select().from(stacks).where(eq(stacks.isDefault, true));
  sharedId = shared?.id ?? 0;
  const insertStack = async (name: string, organizationId: string, expose = false) => {
    const [row] = await t.db
      .insert(stacks)
      .values({ name, region: 'eu-west-1', organizationId, exposeIntrusionDetectionReports: expose })
      .returning();
    return row?.id ?? 0;
  };
  dedicatedId = await insertStack('acme-prod', f.organization.id);
  foreignId = await insertStack('other-prod', f.strangerEnvironment.organizationId);
  exposingId = await insertStack('acme-hids', f.organization.id, true);
  await t.db.insert(vpnTunnels).values([
    {
      stackId: dedicatedId,
      handle: 'office',
      phase1Alg: 'aes256',
      phase1DhGroup: 'modp2048',
      phase1Lifetime: '28800',
      phase2Alg: 'aes256',
      phase2DhGroup: 'modp2048',
      phase2Lifetime: '3600',
      perfectForwardSecrecy: 'yes',
      auto: 'start',
      ourGateway: '203.0.113.10',
      peerGateway: '198.51.100.20',
      ourNetworks: ['10.0.0.0/16'],
      peerNetworks: ['192.168.0.0/24'],
      state: 'up',
    },
    { stackId: dedicatedId, handle: 'datacenter', state: 'down' },
    { stackId: foreignId, handle: 'theirs' },
    // What support set up on the shared stack is no tenant's.
    { stackId: sharedId, handle: 'shared-network' },
  ]);
  await t.db.insert(vpcPeers).values({ stackId: sharedId, connectionId: 'pcx-shared' });
  const onDedicated = await t.createEnvironment(f.owner, f.organization.id, 'on-dedicated');
  await t.db
    .update(environments)
    .set({ stackId: dedicatedId })
    .where(eq(environments.id, Number(onDedicated.id)));
  dedicatedMember = await t.signUp({ name: 'Dedicated Member' });
  const role = await addMember(t.db, { organizationId: f.organization.id, userId: dedicatedMember.id });
  await grant(t.db, { roleId: role.id, environmentId: onDedicated.id, scope: 'basic_read' });
  await t.db.insert(vpcPeers).values({
    stackId: dedicatedId,
    connectionId: 'pcx-0abc',
    connectionStatus: 'active',
    description: 'Analytics VPC',
    peerAccountId: '123456789012',
    peerVpcId: 'vpc-0def',
  });
});

describe('GET /stacks/:id/vpn_tunnels', () => {
  it("answers the stack's tunnels with the contract's fields, paged", async () => {
    const url = `/api/stacks/${dedicatedId}/vpn_tunnels`;
    const [member] = await expectAccess(t, { method: 'GET', url }, [
      [dedicatedMember, 200],
      [f.outsider, 200],
      [f.reader, 200],
      [null, 401],
      [f.stranger, 404],
    ]);
    const body = member?.json();
    expect(body.total_count).toBe(2);
    expect(body._embedded.vpn_tunnels[0]).toEqual({
      id: expect.any(String),
      _type: 'vpn_tunnel',
      handle: 'office',
      phase_1_alg: 'aes256',
      phase_1_dh_group: 'modp2048',
      phase_1_lifetime: '28800',
      phase_2_alg: 'aes256',
      phase_2_dh_group: 'modp2048',
      phase_2_lifetime: '3600',
      perfect_forward_secrecy: 'yes',
      auto: 'start',
      our_gateway: '203.0.113.10',
      peer_gateway: '198.51.100.20',
      our_networks: ['10.0.0.0/16'],
      peer_networks: ['192.168.0.0/24'],
      state: 'up',
      created_at: expect.any(String),
      updated_at: expect.any(String),
      _links: { stack: { href: `${api}/stacks/${dedicatedId}` } },
    });
    const first = (await t.call('GET', `${url}?per_page=1`, { token: f.owner.token })).json();
    expect(first._embedded.vpn_tunnels.map((item: { handle: string }) => item.handle)).toEqual(['office']);
    expect(first._links.next.href).toBe(`${api}/stacks/${dedicatedId}/vpn_tunnels?page=2&per_page=1`);
    const second = (
      await t.call('GET', new URL(first._links.next.href).pathname + new URL(first._links.next.href).search, {
        token: f.owner.token,
      })
    ).json();
    expect(second._embedded.vpn_tunnels.map((item: { handle: string }) => item.handle)).toEqual([
      'datacenter',
    ]);
    expect(second._links.next).toBeUndefined();
  });

  it("lists them to the organization's owners and members with a permission on one of its environments only", async () => {
    const url = `/api/stacks/${dedicatedId}/vpn_tunnels`;
    const totals: number[] = [];
    for (const user of [f.owner, dedicatedMember, f.reader, f.outsider]) {
      const response = await t.call('GET', url, { token: user.token });
      expect(response.statusCode).toBe(200);
      totals.push(response.json().total_count);
    }
    // Owners and the dedicated stack's member; not a member whose permissions are on other stacks, nor
    // one without any.
    expect(totals).toEqual([2, 2, 0, 0]);
    const shared = await t.call('GET', `/api/stacks/${sharedId}/vpn_tunnels`, { token: f.owner.token });
    expect(shared.json()).toMatchObject({ _embedded: { vpn_tunnels: [] }, total_count: 0 });
  });

  it('answers an empty list where the stack has none, and 404 for a stack the caller cannot see', async () => {
    const empty = await t.call('GET', `/api/stacks/${sharedId}/vpn_tunnels?per_page=5000`, {
      token: f.owner.token,
    });
    expect(empty.statusCode).toBe(200);
    expect(empty.json()).toMatchObject({ _embedded: { vpn_tunnels: [] }, total_count: 0 });
    expect(
      (await t.call('GET', `/api/stacks/${foreignId}/vpn_tunnels`, { token: f.owner.token })).statusCode,
    ).toBe(404);
    expect(
      (await t.call('GET', '/api/stacks/not-a-number/vpn_tunnels', { token: f.owner.token })).statusCode,
    ).toBe(404);
  });
});

describe('GET /stacks/:id/vpc_peers', () => {
  it("answers the stack's peers with the contract's fields", async () => {
    const [member] = await expectAccess(t, { method: 'GET', url: `/api/stacks/${dedicatedId}/vpc_peers` }, [
      [dedicatedMember, 200],
      [f.outsider, 200],
      [null, 401],
      [f.stranger, 404],
    ]);
    expect(member?.json()._embedded.vpc_peers).toEqual([
      {
        id: expect.any(String),
        _type: 'vpc_peer',
        connection_id: 'pcx-0abc',
        connection_status: 'active',
        description: 'Analytics VPC',
        peer_account_id: '123456789012',
        peer_vpc_id: 'vpc-0def',
        created_at: expect.any(String),
        updated_at: expect.any(String),
        _links: { stack: { href: `${api}/stacks/${dedicatedId}` } },
      },
    ]);
    const empty = (
      await t.call('GET', `/api/stacks/${sharedId}/vpc_peers`, { token: f.reader.token })
    ).json();
    expect(empty).toMatchObject({ _embedded: { vpc_peers: [] }, total_count: 0 });
    // A member without a permission on the dedicated stack's environments sees none of its peers.
    const hidden = (
      await t.call('GET', `/api/stacks/${dedicatedId}/vpc_peers`, { token: f.outsider.token })
    ).json();
    expect(hidden).toMatchObject({ _embedded: { vpc_peers: [] }, total_count: 0 });
  });
});

describe('GET /stacks/:id/intrusion_detection_reports', () => {
  it("answers the spec's message for a stack that does not expose its reports", async () => {
    for (const id of [sharedId, dedicatedId]) {
      const response = await t.call(
        'GET',
        `/api/stacks/${id}/intrusion_detection_reports?page=1&per_page=10`,
        {
          token: f.owner.token,
        },
      );
      expect([response.statusCode, response.json().message]).toEqual([403, hidsMessages.notExposed]);
      expect(response.json().message).toBe('We cannot expose intrusion detection reports for this stack.');
    }
  });

  it('answers a page of 10 for a stack that exposes them (empty: Berth makes no reports)', async () => {
    const url = `/api/stacks/${exposingId}/intrusion_detection_reports`;
    const [member] = await expectAccess(t, { method: 'GET', url }, [
      [f.outsider, 200],
      [null, 401],
      [f.stranger, 404],
    ]);
    expect(member?.json()).toEqual({
      _embedded: { intrusion_detection_reports: [] },
      _links: { self: { href: `http://berth.test${url}` } },
      current_page: 1,
      per_page: 10,
      total_count: 0,
    });
  });
});
