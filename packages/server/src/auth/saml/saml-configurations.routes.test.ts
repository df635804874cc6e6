import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { SAML_METADATA_BASE64_MAX_LENGTH, ssoMessages } from '@berth/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addMember } from '../../testing/factories.ts';
import { type TestApp, type TestUser, testApp } from '../../testing/test-app.ts';
import { makeCertificate } from '../../testing/test-certificates.ts';
import { createTestIdp } from '../../testing/test-idp.ts';

const base64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');

describe('SAML configurations (contract §5.4): the Account Owner’s', () => {
  let t: TestApp;
  let owner: TestUser;
  let organizationId: string;
  const idp = createTestIdp({ sloUrl: 'https://idp.example.com/slo' });

  beforeAll(async () => {
    t = await testApp();
    owner = await t.signUp();
    organizationId = (await t.createOrganization(owner, 'Configured')).id;
  });
  afterAll(() => t.close());

  const create = (org: string, body: unknown, token = owner.token) =>
    t.call('POST', `/auth/organizations/${org}/saml_configurations`, { token, body });

  it('is made from the IdP metadata XML (base64), the contract’s fields read from it', async () => {
    const created = await create(organizationId, { metadata: idp.metadataBase64(), metadata_url: '' });
    expect(created.statusCode, created.body).toBe(201);
    const body = created.json();
    expect(body).toMatchObject({
      _type: 'saml_configuration',
      entity_id: idp.entityId,
      sign_in_url: idp.ssoUrl,
      sign_out_url: 'https://idp.example.com/slo',
      name_format: 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress',
      certificate_fingerprint_algo: 'sha256',
      aptible_private_key: '',
      handle: null,
      jit_enabled: false,
      default_role_id: null,
    });
    expect(body.certificate).toContain('BEGIN CERTIFICATE');
    expect(body.aptible_certificate).toContain('BEGIN CERTIFICATE');
    expect(JSON.stringify(body)).not.toContain('PRIVATE KEY');
    expect(body._links.acs.href).toBe(`http://berth.test/auth/organizations/${organizationId}/saml/consume`);
    expect(body._links.sp_metadata.href).toBe(
      `http://berth.test/auth/organizations/${organizationId}/saml/metadata`,
    );

    const listed = await t.call('GET', '/auth/saml_configurations', { token: owner.token });
    expect(listed.statusCode).toBe(200);
    expect(listed.json()._embedded.saml_configurations.map((c: { id: string }) => c.id)).toEqual([body.id]);
    // One configuration per organization.
    expect((await create(organizationId, { metadata: idp.metadataBase64() })).json().message).toBe(
      ssoMessages.alreadyConfigured,
    );
  });

  it('wants one of metadata and metadata_url (spec 1 §5)', async () => {
    const org = (await t.createOrganization(owner, 'Empty')).id;
    const refused = await create(org, { metadata: '', metadata_url: '' });
    expect(refused.statusCode).toBe(422);
    expect(refused.json().message).toBe(ssoMessages.metadataRequired);
    const patchRefused = await t.call('PATCH', `/auth/saml_configurations/${await firstId()}`, {
      token: owner.token,
      body: { metadata: '', metadata_url: '' },
    });
    expect(patchRefused.json().message).toBe(ssoMessages.metadataRequired);
  });

  it('refuses metadata that is no IdP metadata, with a DTD, not base64, or too long', async () => {
    const org = (await t.createOrganization(owner, 'Bad Metadata')).id;
    const cases: [unknown, string][] = [
      [
        {
          metadata: base64(
            '<md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" entityID="x"/>',
          ),
        },
        'no identity provider',
      ],
      [
        { metadata: base64(`<!DOCTYPE x [<!ENTITY e "e">]>${idp.metadata().replace(/^<\?xml[^>]*>/, '')}`) },
        'document type declaration',
      ],
      [{ metadata: '%%% not base64 %%%' }, ssoMessages.metadataNotBase64],
      [{ metadata: base64('<md:EntityDescriptor') }, 'not well-formed'],
      [{ metadata: 'A'.repeat(SAML_METADATA_BASE64_MAX_LENGTH + 4) }, ssoMessages.metadataTooLong],
      [
        {
          metadata: base64(
            idp.metadata().replace(/<ds:X509Certificate>[^<]+/, '<ds:X509Certificate>bm90IGEgY2VydA=='),
          ),
        },
        'no signing certificate',
      ],
    ];
    for (const [body, message] of cases) {
      const refused = await create(org, body);
      expect(refused.statusCode, JSON.stringify(body).slice(0, 80)).toBe(422);
      expect(refused.json().message).toContain(message);
    }
  });

  it('takes a handle: unique without regard to case, validated, at most 63 characters', async () => {
    const id = await firstId();
    const set = await t.call('PATCH', `/auth/saml_configurations/${id}`, {
      token: owner.token,
      body: { handle: 'acme-sso' },
    });
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json().handle).toBe('acme-sso');
    expect(set.json()._links.sso_login.href).toBe('http://berth.test/auth/organizations/acme-sso/saml/login');
    const other = (await t.createOrganization(owner, 'Other')).id;
    const taken = await create(other, { metadata: idp.metadataBase64(), handle: 'ACME-SSO' });
    expect(taken.statusCode).toBe(422);
    expect(taken.json().message).toBe(ssoMessages.handleTaken);
    for (const [handle, message] of [
      ['has space', ssoMessages.handleFormat],
      ['-dash', ssoMessages.handleFormat],
      ['x'.repeat(64), ssoMessages.handleTooLong],
      ['0b9c3a6e-5d0e-4c1b-9a55-7d1f1d4c2e10', ssoMessages.handleIsUuid],
    ]) {
      const refused = await t.call('PATCH', `/auth/saml_configurations/${id}`, {
        token: owner.token,
        body: { handle },
      });
      expect(refused.statusCode).toBe(422);
      expect(refused.json().message).toBe(message);
    }
    const cleared = await t.call('PATCH', `/auth/saml_configurations/${id}`, {
      token: owner.token,
      body: { handle: null },
    });
    expect(cleared.json().handle).toBeNull();
  });

  it('turns just-in-time provisioning on only with a default role of the organization', async () => {
    const id = await firstId();
    const without = await t.call('PATCH', `/auth/saml_configurations/${id}`, {
      token: owner.token,
      body: { jit_enabled: true },
    });
    expect(without.statusCode).toBe(422);
    expect(without.json().message).toBe(ssoMessages.defaultRoleRequired);
    const foreignOrg = (await t.createOrganization(owner, 'Foreign')).id;
    const foreignRoles = await t.call('GET', `/auth/organizations/${foreignOrg}/roles`, {
      token: owner.token,
    });
    const foreign = await t.call('PATCH', `/auth/saml_configurations/${id}`, {
      token: owner.token,
      body: { jit_enabled: true, default_role_id: foreignRoles.json()._embedded.roles[0].id },
    });
    expect(foreign.json().message).toBe(ssoMessages.defaultRoleNotFound);
  });

  it('answers 401 without a token, 404 for another organization, 403 to a member who is no Account Owner', async () => {
    const id = await firstId();
    expect((await t.call('GET', '/auth/saml_configurations')).statusCode).toBe(401);
    expect((await create(organizationId, { metadata: idp.metadataBase64() }, '')).statusCode).toBe(401);
    expect(
      (await t.call('PATCH', `/auth/saml_configurations/${id}`, { body: { handle: 'x1' } })).statusCode,
    ).toBe(401);
    expect((await t.call('DELETE', `/auth/saml_configurations/${id}`)).statusCode).toBe(401);

    const stranger = await t.signUp();
    await t.createOrganization(stranger, 'Strangers');
    expect(
      (await create(organizationId, { metadata: idp.metadataBase64() }, stranger.token)).statusCode,
    ).toBe(404);
    // Even with a bad body: a stranger learns nothing from a 422.
    expect((await create(organizationId, { metadata: 5 }, stranger.token)).statusCode).toBe(404);
    const patch = await t.call('PATCH', `/auth/saml_configurations/${id}`, {
      token: stranger.token,
      body: { handle: 'mine' },
    });
    expect(patch.statusCode).toBe(404);
    expect(
      (await t.call('DELETE', `/auth/saml_configurations/${id}`, { token: stranger.token })).statusCode,
    ).toBe(404);
    expect(
      (await t.call('GET', '/auth/saml_configurations', { token: stranger.token })).json()._embedded
        .saml_configurations,
    ).toEqual([]);

    const deployOwner = await t.signUp();
    await addMember(t.db, {
      organizationId,
      userId: deployOwner.id,
      roleType: 'platform_owner',
      name: 'Deployers',
    });
    const denied = await create(organizationId, { metadata: idp.metadataBase64() }, deployOwner.token);
    expect(denied.statusCode).toBe(403);
    const patchDenied = await t.call('PATCH', `/auth/saml_configurations/${id}`, {
      token: deployOwner.token,
      body: { handle: 'mine' },
    });
    expect(patchDenied.statusCode).toBe(403);
    expect(
      (await t.call('DELETE', `/auth/saml_configurations/${id}`, { token: deployOwner.token })).statusCode,
    ).toBe(403);
    expect(
      (await t.call('GET', '/auth/saml_configurations', { token: deployOwner.token })).json()._embedded
        .saml_configurations,
    ).toEqual([]);
  });

  it('is not removed while SSO is enforced (spec 1 §8’s message), and is once it is not', async () => {
    const id = await firstId();
    const enforced = await t.call('PATCH', `/auth/organizations/${organizationId}`, {
      token: owner.token,
      body: { sso_enforced: true },
    });
    expect(enforced.statusCode, enforced.body).toBe(200);
    const refused = await t.call('DELETE', `/auth/saml_configurations/${id}`, { token: owner.token });
    expect(refused.statusCode).toBe(422);
    expect(refused.json().message).toBe(ssoMessages.enforcedRemoval);
    await t.call('PATCH', `/auth/organizations/${organizationId}`, {
      token: owner.token,
      body: { sso_enforced: false },
    });
    const removed = await t.call('DELETE', `/auth/saml_configurations/${id}`, { token: owner.token });
    expect(removed.statusCode).toBe(204);
    expect((await t.call('GET', `/auth/organizations/${organizationId}/saml/metadata`)).statusCode).toBe(404);
  });

  async function firstId(): Promise<string> {
    const listed = await t.call('GET', '/auth/saml_configurations', { token: owner.token });
    return listed.json()._embedded.saml_configurations[0].id;
  }
});

describe('SAML metadata URLs: https only, through the outbound guard', () => {
  const certificate = makeCertificate({ subject: { commonName: 'localhost' }, altNames: ['localhost'] });
  const idp = createTestIdp();
  let server: Server;
  let port: number;
  let served = idp.metadata();

  beforeAll(async () => {
    server = createServer(
      { key: certificate.privateKeyPem, cert: certificate.certificatePem },
      (_request, response) => {
        response.writeHead(200, { 'content-type': 'application/samlmetadata+xml' });
        response.end(served);
      },
    );
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  async function configure(t: TestApp, metadataUrl: string) {
    const owner = await t.signUp();
    const org = await t.createOrganization(owner);
    return t.call('POST', `/auth/organizations/${org.id}/saml_configurations`, {
      token: owner.token,
      body: { metadata: '', metadata_url: metadataUrl },
    });
  }

  it('refuses this machine and private addresses, and anything but https', async () => {
    const t = await testApp({
      ssoMetadata: { allow: { everything: false, hosts: [], ranges: [] }, ca: [certificate.certificatePem] },
    });
    try {
      const loopback = await configure(t, `https://localhost:${port}/metadata`);
      expect(loopback.statusCode).toBe(422);
      expect(loopback.json().message).toContain('private address');
      const privateRange = await configure(t, 'https://10.20.30.40/metadata');
      expect(privateRange.statusCode).toBe(422);
      expect(privateRange.json().message).toBe(
        '10.20.30.40 is a private address: metadata URLs must be public',
      );
      const metadataService = await configure(t, 'https://169.254.169.254/latest/meta-data');
      expect(metadataService.statusCode).toBe(422);
      const plain = await configure(t, 'http://idp.example.com/metadata');
      expect(plain.json().message).toBe(ssoMessages.metadataUrlNotHttps);
    } finally {
      await t.close();
    }
  });

  it('fetches an IdP the operator allowed (BERTH_SSO_METADATA_ALLOW), within its size limit', async () => {
    const t = await testApp({
      ssoMetadata: {
        allow: { everything: false, hosts: ['localhost'], ranges: [] },
        ca: [certificate.certificatePem],
      },
    });
    try {
      served = idp.metadata();
      const fetched = await configure(t, `https://localhost:${port}/metadata`);
      expect(fetched.statusCode, fetched.body).toBe(201);
      expect(fetched.json()).toMatchObject({
        entity_id: idp.entityId,
        metadata_url: `https://localhost:${port}/metadata`,
      });
      served = `${idp.metadata()}<!--${'x'.repeat(300 * 1024)}-->`;
      const oversized = await configure(t, `https://localhost:${port}/metadata`);
      expect(oversized.statusCode).toBe(422);
      expect(oversized.json().message).toContain('more than 256 KB');
    } finally {
      served = idp.metadata();
      await t.close();
    }
  });
});
