import { describe, expect, it } from 'vitest';
import {
  createEndpointSchema,
  defaultEndpointDomain,
  defaultEndpointName,
  endpointSettingsProblems,
  ipAllowlistProblems,
  isIpv4OrCidr,
  isPendingCertificateIssuance,
  isValidDomain,
  isZeroDowntimeEndpointType,
  normalizeDomain,
  sharedConversionProblem,
  updateEndpointSchema,
} from './endpoint.schema.ts';

const firstMessage = (body: unknown) => createEndpointSchema.safeParse(body).error?.issues[0]?.message;
const certificate = 'http://berth.test/api/certificates/7';

describe('endpoint create body (spec 2 §5, contract §5.9)', () => {
  it('applies the defaults of a default-domain HTTP endpoint', () => {
    expect(createEndpointSchema.parse({ default: true })).toEqual({
      type: 'http',
      platform: 'elb',
      acme: false,
      default: true,
      internal: false,
      ip_whitelist: [],
      shared: false,
    });
  });

  it('reads the console shapes: URL certificate, string ports and allowlists', () => {
    const parsed = createEndpointSchema.parse({
      type: 'tcp',
      platform: 'elb',
      ip_whitelist: '10.0.0.1\n192.168.0.0/16  0.0.0.0/0',
      container_ports: '5432, 5433 6000',
    });
    expect(parsed.ip_whitelist).toEqual(['10.0.0.1', '192.168.0.0/16', '0.0.0.0/0']);
    expect(parsed.container_ports).toEqual([5432, 5433, 6000]);
    const custom = createEndpointSchema.parse({ type: 'http', certificate, container_port: '8080' });
    expect(custom.certificate).toBe('7');
    expect(custom.container_port).toBe(8080);
    expect(createEndpointSchema.parse({ default: true, container_port: '' }).container_port).toBeNull();
    expect(createEndpointSchema.parse({ default: true, token_header: '' }).token_header).toBeNull();
    expect(createEndpointSchema.parse({ acme: true, user_domain: 'WWW.Example.com.' }).user_domain).toBe(
      'www.example.com',
    );
  });

  it.each([
    [{ default: true, container_port: 0 }, 'Port must be a number between 1 and 65535'],
    [{ default: true, container_port: '65536' }, 'Port must be a number between 1 and 65535'],
    [{ default: true, container_port: 'web' }, 'Port must be a number between 1 and 65535'],
    [{ type: 'tcp', container_ports: '80 70000' }, '[70000] is not between 1 and 65535'],
    [{ type: 'tcp', container_ports: [0] }, '[0] is not between 1 and 65535'],
    [{ default: true, ip_whitelist: ['10.0.0.256'] }, '[10.0.0.256] is not a valid IPv4 address or CIDR'],
    [{ default: true, ip_whitelist: '10.0.0.0/33' }, '[10.0.0.0/33] is not a valid IPv4 address or CIDR'],
    [{ default: true, ip_whitelist: 'example.com' }, '[example.com] is not a valid IPv4 address or CIDR'],
    [
      { default: true, ip_whitelist: Array.from({ length: 51 }, (_, i) => `10.0.0.${i}`) },
      '51 is greater than the max IP Allowlist size of 50',
    ],
    [
      { default: true, token_header: 'secret token' },
      'Token header may contain only letters, numbers, underscores, hyphens, colons and periods',
    ],
    [{ type: 'tcp', token_header: 'secret' }, 'A HTTP or GRPC endpoint is required to pass token'],
    [
      { type: 'tls', default: true, token_header: 'secret' },
      'A HTTP or GRPC endpoint is required to pass token',
    ],
    [{ type: 'http' }, 'A certificate is required for custom HTTPS'],
    [{ type: 'grpc', platform: 'elb' }, 'A certificate is required for custom HTTPS'],
    [{ acme: true }, 'A domain is required for managed HTTPS'],
    [{ shared: true, certificate }, 'A domain is required for shared endpoints with a certificate.'],
    [
      { shared: true, acme: true, user_domain: '*.example.com' },
      'Shared endpoints do not support wildcard domains. Please use a specific domain name.',
    ],
    [{ type: 'tcp', shared: true }, 'Shared endpoints are available for HTTP endpoints only'],
    [
      { type: 'tcp', load_balancing_algorithm_type: 'weighted_random' },
      'A load balancing algorithm can be set for HTTP endpoints only',
    ],
    [
      { default: true, load_balancing_algorithm_type: 'random' },
      'Load balancing algorithm must be one of: round_robin, least_outstanding_requests, weighted_random',
    ],
    [{ type: 'udp' }, 'Endpoint type must be one of: http, http_proxy_protocol, grpc, tls, tcp'],
    [{ default: true, platform: 'nlb' }, 'Platform must be one of: alb, elb'],
    [{ default: true, internal: 'yes' }, 'Internal must be true or false'],
    [{ acme: true, user_domain: 'not a domain' }, 'Domain must be a valid domain name'],
    [
      { acme: true, default: true, user_domain: 'a.example.com' },
      'An endpoint uses either the default domain or managed HTTPS, not both',
    ],
    [
      { certificate: 'http://berth.test/api/certificates/abc' },
      'Certificate must be the URL of a certificate',
    ],
  ])('refuses %j with "%s"', (body, message) => {
    expect(firstMessage(body)).toBe(message);
  });

  it('accepts the valid forms of each endpoint kind', () => {
    for (const body of [
      { type: 'tcp', platform: 'elb', ip_whitelist: [], acme: false, default: false, internal: false },
      { type: 'tls', default: true },
      { type: 'http', certificate },
      { type: 'http', acme: true, user_domain: 'www.example.com' },
      { type: 'http', acme: true, user_domain: '*.example.com' },
      { type: 'http', shared: true, default: true },
      { type: 'http', shared: true, certificate, user_domain: 'shop.example.com' },
      { type: 'grpc', default: true, token_header: 'x-token:abc.1_2-3' },
    ]) {
      expect(createEndpointSchema.safeParse(body).success, JSON.stringify(body)).toBe(true);
    }
  });
});

describe('endpoint rules as pure functions', () => {
  it('checks IPv4 addresses and CIDRs', () => {
    expect(isIpv4OrCidr('0.0.0.0/0')).toBe(true);
    expect(isIpv4OrCidr('255.255.255.255/32')).toBe(true);
    expect(isIpv4OrCidr('1.2.3')).toBe(false);
    expect(isIpv4OrCidr('::1')).toBe(false);
    expect(ipAllowlistProblems(['1.1.1.1', 'x'])).toEqual(['[x] is not a valid IPv4 address or CIDR']);
  });

  it('refuses turning a shared endpoint into a dedicated one', () => {
    expect(sharedConversionProblem(true, false)).toBe(
      'Shared endpoints cannot be converted to dedicated endpoints.',
    );
    expect(sharedConversionProblem(true, undefined)).toBeNull();
    expect(sharedConversionProblem(false, true)).toBeNull();
  });

  it('runs the cross-field rules on merged settings', () => {
    expect(
      endpointSettingsProblems({
        type: 'http',
        acme: false,
        default: false,
        shared: false,
        userDomain: '',
        hasCertificate: false,
        tokenHeader: null,
      }),
    ).toEqual(['A certificate is required for custom HTTPS']);
  });

  it('flags pending certificate issuance only for provisioned ACME endpoints not ready', () => {
    expect(isPendingCertificateIssuance({ acme: true, acmeStatus: 'pending', status: 'provisioned' })).toBe(
      true,
    );
    expect(isPendingCertificateIssuance({ acme: true, acmeStatus: 'ready', status: 'provisioned' })).toBe(
      false,
    );
    expect(isPendingCertificateIssuance({ acme: true, acmeStatus: 'pending', status: 'provisioning' })).toBe(
      false,
    );
    expect(isPendingCertificateIssuance({ acme: false, acmeStatus: '', status: 'provisioned' })).toBe(false);
  });

  it('normalises a trailing dot in domains', () => {
    expect(normalizeDomain('Example.COM.')).toBe('example.com');
  });

  it('accepts host names of two or more labels of at most 63 characters, and a leading wildcard', () => {
    const label63 = 'a'.repeat(63);
    for (const good of ['example.com', 'a-b.c-d.example', `${label63}.com`, '*.example.com', 'x1.y2']) {
      expect(isValidDomain(good), good).toBe(true);
    }
    for (const bad of [
      'localhost',
      '*.com',
      `${label63}a.com`,
      '-a.com',
      'a-.com',
      'a..com',
      'a.*.com',
      'a_b.com',
      `${'a.'.repeat(127)}com`,
      `${'-'.repeat(100_000)}.com`,
    ]) {
      expect(isValidDomain(bad), bad.slice(0, 40)).toBe(false);
    }
  });

  it('update keeps what is not sent', () => {
    expect(updateEndpointSchema.parse({})).toEqual({});
    expect(updateEndpointSchema.parse({ shared: true, certificate: '' })).toEqual({
      shared: true,
      certificate: null,
    });
  });
});

describe('endpoint names, strategy and operation scopes', () => {
  it('names a default endpoint after its app and environment on the stack default domain', () => {
    expect(defaultEndpointName('shop', 'production')).toBe('shop-production');
    expect(defaultEndpointDomain(defaultEndpointName('shop', 'production'), 'on-berth.localhost')).toBe(
      'shop-production.on-berth.localhost',
    );
    // Only a clash adds a suffix.
    expect(defaultEndpointName('shop', 'production', '-2')).toBe('shop-production-2');
  });

  it('makes a DNS label of any handles: lower case, [a-z0-9-], no hyphen at either end', () => {
    expect(defaultEndpointName('my_app.v2', 'staging')).toBe('my-app-v2-staging');
    expect(defaultEndpointName('-web-', '_prod_')).toBe('web-prod');
    expect(defaultEndpointName('a__b', 'c..d')).toBe('a-b-c-d');
    // A handle of punctuation alone leaves the other; none at all, a word.
    expect(defaultEndpointName('___', 'staging')).toBe('staging');
    expect(defaultEndpointName('._-', '-._')).toBe('endpoint');
  });

  it('cuts long handles to a 63-character label, each keeping at least half the room', () => {
    const long = 'a'.repeat(64);
    const both = defaultEndpointName(long, 'b'.repeat(64));
    expect(both).toBe(`${'a'.repeat(31)}-${'b'.repeat(31)}`);
    // A short environment leaves the rest to the app, and the other way round.
    expect(defaultEndpointName(long, 'production')).toBe(`${'a'.repeat(52)}-production`);
    expect(defaultEndpointName('web', long)).toBe(`web-${'a'.repeat(59)}`);
    // The suffix fits in the 63 too; a cut never leaves a hyphen before the joint.
    const suffixed = defaultEndpointName(long, 'production', '-12');
    expect(suffixed).toBe(`${'a'.repeat(49)}-production-12`);
    expect(defaultEndpointName(`${'a'.repeat(30)}-${'c'.repeat(33)}`, 'd'.repeat(64))).toBe(
      `${'a'.repeat(30)}-${'d'.repeat(31)}`,
    );
    for (const name of [both, suffixed]) {
      expect(name.length).toBeLessThanOrEqual(63);
      expect(name).toMatch(/^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/);
    }
  });

  it('keeps zero-downtime deploys for http, http_proxy_protocol and grpc endpoints (spec 2 §4)', () => {
    expect(['http', 'http_proxy_protocol', 'grpc', 'tls', 'tcp'].map(isZeroDowntimeEndpointType)).toEqual([
      true,
      true,
      true,
      false,
      false,
    ]);
  });
});
