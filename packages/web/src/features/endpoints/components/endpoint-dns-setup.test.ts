import { describe, expect, it } from 'vitest';
import { fromVhostHal } from '../api/endpoint.hal.ts';
import { dnsRecords } from './endpoint-dns-setup.tsx';

const managed = (configuration: unknown) =>
  fromVhostHal({
    _type: 'vhost',
    id: '7',
    type: 'http',
    status: 'provisioned',
    acme: true,
    acme_status: 'pending',
    user_domain: 'www.example.com',
    virtual_domain: 'www.example.com',
    external_host: 'alb-7.on-berth.localhost',
    acme_dns_challenge_host: 'acme-7.on-berth.localhost',
    acme_configuration: configuration as never,
    _links: {},
  });

describe('dnsRecords (contract §4.3 acme_configuration)', () => {
  it('lists the traffic record and the challenge, each once', () => {
    const records = dnsRecords(
      managed({
        names: ['www.example.com'],
        challenges: [
          {
            method: 'dns01',
            from: { name: '_acme-challenge.www.example.com' },
            to: [{ name: 'acme-7.on-berth.localhost', legacy: false }],
          },
          {
            method: 'http01',
            from: { name: 'www.example.com' },
            to: [{ name: 'alb-7.on-berth.localhost', legacy: false }],
          },
        ],
      }),
    );
    expect(records.map((record) => [record.name, record.target])).toEqual([
      ['www.example.com', 'alb-7.on-berth.localhost'],
      ['_acme-challenge.www.example.com', 'acme-7.on-berth.localhost'],
    ]);
  });

  it('falls back to the challenge host without a configuration', () => {
    expect(dnsRecords(managed(null)).map((record) => [record.name, record.target])).toEqual([
      ['www.example.com', 'alb-7.on-berth.localhost'],
      ['_acme-challenge.www.example.com', 'acme-7.on-berth.localhost'],
    ]);
  });
});
