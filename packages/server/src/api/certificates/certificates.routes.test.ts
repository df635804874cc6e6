import { createPrivateKey } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { cannotSee, cannotWrite, environmentSuite, expectAccess } from '../../testing/environment-fixture.ts';
import { addMember, grant, seedApp, seedService } from '../../testing/factories.ts';
import type { TestUser } from '../../testing/test-app.ts';
import { makeCertificate, type TestCertificate } from '../../testing/test-certificates.ts';

const { t, f } = await environmentSuite();
/** sensitive only: may upload certificates, sees private keys. */
let keeper: TestUser;
let leaf: TestCertificate;
let ca: TestCertificate;
let appId: number;
let webId: number;
const api = 'http://berth.test/api';

const body = (cert: TestCertificate, chain = '') => ({
  certificate_body: cert.certificatePem + chain,
  private_key: cert.privateKeyPem,
});

async function upload(user: TestUser, cert: TestCertificate, environmentId = f.environment.id) {
  const response = await t.call('POST', `/api/accounts/${environmentId}/certificates`, {
    token: user.token,
    body: body(cert),
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json() as { id: string; [key: string]: unknown };
}

beforeAll(async () => {
  keeper = await t.signUp({ name: 'Keeper' });
  const role = await addMember(t.db, {
    organizationId: f.organization.id,
    userId: keeper.id,
    name: 'Keeper',
  });
  await grant(t.db, { roleId: role.id, environmentId: String(f.environment.id), scope: 'sensitive' });
  ca = makeCertificate({
    subject: { commonName: 'Berth Test CA', organization: 'Berth Test', country: 'US' },
    altNames: [],
  });
  leaf = makeCertificate({
    subject: {
      commonName: 'shop.example.com',
      organization: 'Shop Inc',
      country: 'US',
      state: 'California',
      locality: 'San Francisco',
    },
    altNames: ['shop.example.com', 'www.shop.example.com'],
    keyType: 'rsa',
    issuer: ca,
    notBefore: new Date('2026-01-01T00:00:00.000Z'),
    days: 730,
  });
  const app = await seedApp(t.db, { environmentId: f.environment.id, handle: 'shop' });
  appId = app.id;
  webId = (await seedService(t.db, { environmentId: f.environment.id, appId, handle: 'web' })).id;
});

describe('POST /accounts/:id/certificates', () => {
  it('parses the PEM: names, validity, issuer, chain, fingerprint, key algorithm', async () => {
    const response = await t.call('POST', `/api/accounts/${f.environment.id}/certificates`, {
      token: keeper.token,
      body: body(leaf, ca.certificatePem),
    });
    expect(response.statusCode).toBe(201);
    const created = response.json();
    expect(created).toEqual({
      id: expect.stringMatching(/^\d+$/),
      _type: 'certificate',
      common_name: 'shop.example.com',
      certificate_body: `${leaf.certificatePem.trim()}\n${ca.certificatePem.trim()}`,
      leaf_certificate: leaf.certificatePem.trim(),
      certificate_chain: ca.certificatePem.trim(),
      private_key: leaf.privateKeyPem.trim(),
      private_key_algorithm: 'RSA 2048',
      not_before: '2026-01-01T00:00:00.000Z',
      not_after: '2028-01-01T00:00:00.000Z',
      issuer_organization: 'Berth Test',
      issuer_common_name: 'Berth Test CA',
      issuer_country: 'US',
      issuer_website: '',
      subject_country: 'US',
      subject_state: 'California',
      subject_locale: 'San Francisco',
      subject_organization: 'Shop Inc',
      subject_alternative_names: ['shop.example.com', 'www.shop.example.com'],
      sha256_fingerprint: expect.stringMatching(/^[0-9a-f]{64}$/),
      acme: false,
      // Signed by a test CA no one trusts, and not by itself.
      trusted: false,
      self_signed: false,
      created_at: expect.any(String),
      updated_at: expect.any(String),
      _links: {
        self: { href: `${api}/certificates/${created.id}` },
        account: { href: `${api}/accounts/${f.environment.id}` },
        apps: { href: `${api}/certificates/${created.id}/apps` },
        vhosts: { href: `${api}/certificates/${created.id}/vhosts` },
      },
    });
  });

  it('knows a self-signed certificate', async () => {
    const created = await upload(f.owner, makeCertificate({ subject: { commonName: 'self.example.com' } }));
    expect(created).toMatchObject({
      common_name: 'self.example.com',
      self_signed: true,
      trusted: false,
      issuer_common_name: 'self.example.com',
      private_key_algorithm: 'EC prime256v1',
    });
  });

  it.each([
    [() => ({ private_key: leaf.privateKeyPem }), 'A certificate is required for custom HTTPS'],
    [
      () => ({ certificate_body: leaf.certificatePem, private_key: '' }),
      'A private key is required for custom HTTPS',
    ],
    [
      () => ({ certificate_body: 'not a certificate', private_key: leaf.privateKeyPem }),
      'The certificate is not a valid PEM-encoded X.509 certificate',
    ],
    [
      () => ({
        certificate_body: '-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----',
        private_key: leaf.privateKeyPem,
      }),
      'The certificate is not a valid PEM-encoded X.509 certificate',
    ],
    [
      () => ({ certificate_body: leaf.certificatePem, private_key: 'garbage' }),
      'The private key is not a valid PEM-encoded private key (encrypted keys are not supported)',
    ],
    [
      () => ({ certificate_body: leaf.certificatePem, private_key: ca.privateKeyPem }),
      'The private key does not match the certificate',
    ],
  ])('refuses a bad upload with 422 "%s"', async (make, message) => {
    const response = await t.call('POST', `/api/accounts/${f.environment.id}/certificates`, {
      token: keeper.token,
      body: make(),
    });
    expect(response.statusCode).toBe(422);
    expect(response.json()).toMatchObject({ code: 422, message });
  });

  it('stores the normalized PEM: the key as PKCS#8, the certificates without what surrounds them', async () => {
    const rsaKey = leaf.privateKey.export({ type: 'pkcs1', format: 'pem' }).toString();
    const crlf = (text: string) => text.replace(/\n/g, '\r\n');
    const response = await t.call('POST', `/api/accounts/${f.environment.id}/certificates`, {
      token: keeper.token,
      body: {
        // As exported by some tools: bag attributes, CRLF line ends, and the key pasted in by mistake.
        certificate_body: `subject=/CN=shop.example.com\n${crlf(leaf.certificatePem)}\n${rsaKey}\nissuer=/CN=Berth Test CA\n${ca.certificatePem}trailing words`,
        private_key: `Bag Attributes\n    localKeyID: 01 00 00 00\nKey Attributes: <No Attributes>\n${crlf(rsaKey)}junk`,
      },
    });
    expect(response.statusCode, response.body).toBe(201);
    const created = response.json();
    expect(created.certificate_body).toBe(`${leaf.certificatePem.trim()}\n${ca.certificatePem.trim()}`);
    expect(created.leaf_certificate).toBe(leaf.certificatePem.trim());
    expect(created.certificate_chain).toBe(ca.certificatePem.trim());
    const pkcs8 = leaf.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString().trim();
    expect(created.private_key).toBe(pkcs8);
    expect(created.private_key).not.toContain('Bag Attributes');
    expect(createPrivateKey(created.private_key).equals(leaf.privateKey)).toBe(true);
  });

  it('takes an EC key with its parameters block, stored as PKCS#8', async () => {
    const cert = makeCertificate({ subject: { commonName: 'ec.example.com' } });
    const sec1 = cert.privateKey.export({ type: 'sec1', format: 'pem' }).toString();
    const created = await t.call('POST', `/api/accounts/${f.environment.id}/certificates`, {
      token: keeper.token,
      body: {
        certificate_body: cert.certificatePem,
        private_key: `-----BEGIN EC PARAMETERS-----\nBggqhkjOPQMBBw==\n-----END EC PARAMETERS-----\n${sec1}`,
      },
    });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json().private_key).toBe(cert.privateKeyPem.trim());
  });

  it('refuses a private key text holding more than one key', async () => {
    const other = makeCertificate({ subject: { commonName: 'other.example.com' } });
    for (const privateKey of [
      `${leaf.privateKeyPem}${other.privateKeyPem}`,
      `${leaf.privateKeyPem}\n${leaf.privateKey.export({ type: 'pkcs1', format: 'pem' })}`,
    ]) {
      const response = await t.call('POST', `/api/accounts/${f.environment.id}/certificates`, {
        token: keeper.token,
        body: { certificate_body: leaf.certificatePem, private_key: privateKey },
      });
      expect(response.statusCode).toBe(422);
      expect(response.json()).toMatchObject({
        code: 422,
        message: 'The private key must contain exactly one private key, not several',
        details: { private_key: ['several keys'] },
      });
    }
  });

  it('checks access before the body: a bad body is 404 or 403 for those who may not upload', async () => {
    await expectAccess(
      t,
      {
        method: 'POST',
        url: `/api/accounts/${f.environment.id}/certificates`,
        body: { certificate_body: '', private_key: 'garbage' },
        scope: 'sensitive',
        environmentId: f.environment.id,
      },
      [...cannotWrite(f), [f.deployer, 403], [keeper, 422]],
    );
    const foreign = await t.call('POST', `/api/accounts/${f.strangerEnvironment.id}/certificates`, {
      token: f.owner.token,
      body: {},
    });
    expect(foreign.statusCode).toBe(404);
  });

  it('needs the sensitive scope', async () => {
    await expectAccess(
      t,
      {
        method: 'POST',
        url: `/api/accounts/${f.environment.id}/certificates`,
        body: body(leaf),
        scope: 'sensitive',
        environmentId: f.environment.id,
      },
      [...cannotWrite(f), [f.deployer, 403]],
    );
  });
});

describe('reading certificates', () => {
  let id: string;
  beforeAll(async () => {
    id = (await upload(keeper, leaf)).id;
  });

  it('GET /certificates/:id shows the private key to sensitive callers only', async () => {
    const [asReader] = await expectAccess(t, { method: 'GET', url: `/api/certificates/${id}` }, [
      [f.reader, 200],
      ...cannotSee(f),
    ]);
    expect(asReader?.json()).toMatchObject({ id, common_name: 'shop.example.com', private_key: '' });
    const asKeeper = (await t.call('GET', `/api/certificates/${id}`, { token: keeper.token })).json();
    expect(asKeeper.private_key).toBe(leaf.privateKeyPem.trim());
    expect((await t.call('GET', '/api/certificates/999999', { token: f.owner.token })).statusCode).toBe(404);
  });

  it('GET /accounts/:id/certificates pages (the console auto-pages it)', async () => {
    const [all] = await expectAccess(
      t,
      { method: 'GET', url: `/api/accounts/${f.environment.id}/certificates` },
      [[f.reader, 200], ...cannotSee(f)],
    );
    const total = all?.json().total_count as number;
    expect(total).toBeGreaterThanOrEqual(2);
    const page = (
      await t.call('GET', `/api/accounts/${f.environment.id}/certificates?page=2&per_page=1`, {
        token: f.reader.token,
      })
    ).json();
    expect(page).toMatchObject({ current_page: 2, per_page: 1, total_count: total });
    expect(page._embedded.certificates).toHaveLength(1);
  });
});

describe('certificates in use', () => {
  it('lists the endpoints and apps using it, and refuses its delete until they are gone', async () => {
    const certificate = await upload(keeper, leaf);
    const certificateUrl = `${api}/certificates/${certificate.id}`;
    const vhost = await t.call('POST', `/api/services/${webId}/vhosts`, {
      token: f.deployer.token,
      body: { type: 'http', platform: 'alb', certificate: certificateUrl },
    });
    expect(vhost.statusCode).toBe(201);
    const vhostId = vhost.json().id;

    const [vhosts] = await expectAccess(
      t,
      { method: 'GET', url: `/api/certificates/${certificate.id}/vhosts` },
      [
        [f.reader, 200],
        [null, 401],
        [f.stranger, 404],
      ],
    );
    expect(vhosts?.json()._embedded.vhosts.map((v: { id: string }) => v.id)).toEqual([vhostId]);
    const [apps] = await expectAccess(t, { method: 'GET', url: `/api/certificates/${certificate.id}/apps` }, [
      [f.reader, 200],
      [null, 401],
      [f.stranger, 404],
    ]);
    expect(apps?.json()._embedded.apps).toMatchObject([
      {
        id: String(appId),
        _type: 'app',
        handle: 'shop',
        _links: { account: { href: `${api}/accounts/${f.environment.id}` } },
      },
    ]);

    await expectAccess(
      t,
      {
        method: 'DELETE',
        url: `/api/certificates/${certificate.id}`,
        scope: 'sensitive',
        environmentId: f.environment.id,
      },
      [...cannotSee(f), [f.deployer, 403], [f.viewer, 403]],
    );
    const refused = await t.call('DELETE', `/api/certificates/${certificate.id}`, { token: keeper.token });
    expect(refused.statusCode).toBe(422);
    expect(refused.json().message).toBe(
      'This certificate is still in use and cannot be deleted. Remove all endpoints before trying again.',
    );

    expect((await t.call('DELETE', `/api/vhosts/${vhostId}`, { token: f.owner.token })).statusCode).toBe(204);
    const deleted = await t.call('DELETE', `/api/certificates/${certificate.id}`, { token: keeper.token });
    expect(deleted.statusCode).toBe(204);
    expect(
      (await t.call('GET', `/api/certificates/${certificate.id}`, { token: f.owner.token })).statusCode,
    ).toBe(404);
  });
});

describe('PATCH /certificates/:id', () => {
  it('replaces the certificate and key (a renewal), re-parsed', async () => {
    const certificate = await upload(keeper, makeCertificate({ subject: { commonName: 'old.example.com' } }));
    const renewed = makeCertificate({ subject: { commonName: 'old.example.com' }, days: 90 });
    const response = await t.call('PATCH', `/api/certificates/${certificate.id}`, {
      token: keeper.token,
      body: body(renewed),
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().sha256_fingerprint).not.toBe(certificate.sha256_fingerprint);
    const mismatch = await t.call('PATCH', `/api/certificates/${certificate.id}`, {
      token: keeper.token,
      body: { certificate_body: renewed.certificatePem, private_key: leaf.privateKeyPem },
    });
    expect(mismatch.json().message).toBe('The private key does not match the certificate');
    await expectAccess(
      t,
      {
        method: 'PATCH',
        url: `/api/certificates/${certificate.id}`,
        body: body(renewed),
        scope: 'sensitive',
        environmentId: f.environment.id,
      },
      [
        [null, 401],
        [f.stranger, 404],
        [f.deployer, 403],
      ],
    );
    // Access is checked before the body is read.
    await expectAccess(
      t,
      {
        method: 'PATCH',
        url: `/api/certificates/${certificate.id}`,
        body: { certificate_body: 'not a certificate' },
        scope: 'sensitive',
        environmentId: f.environment.id,
      },
      [...cannotSee(f), [f.viewer, 403], [f.deployer, 403], [keeper, 422]],
    );
  });
});
