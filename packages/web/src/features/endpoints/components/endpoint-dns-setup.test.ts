import type { VhostResource } from '@berth/core';
import { describe, expect, it } from 'vitest';
import { vhostResourceFixture } from '../../../../test/vhost-fixtures.ts';
import { fromVhostResource } from '../../../resources/endpoints/endpoint.hal.ts';
import { dnsRecords } from './endpoint-dns-setup.tsx';

const managed = (configuration: VhostResource['acme_configuration']) =>
  fromVhostResource(
    vhostResourceFixture({
      id: '7',
      default: false,
      acme: true,
      acme_status: 'pending',
      user_domain: 'www.example.com',
      virtual_domain: 'www.example.com',
      external_host: 'alb-7.on-berth.localhost',
      acme_dns_challenge_host: 'acme-7.on-berth.localhost',
      acme_configuration: configuration,
    }),
  );

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
