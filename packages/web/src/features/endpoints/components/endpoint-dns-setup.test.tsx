import type { VhostResource } from '@berth/core';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { vhostResourceFixture } from '../../../../test/vhost-fixtures.ts';
import { fromVhostResource } from '../../../resources/endpoints/endpoint.hal.ts';
import { dnsRecords, EndpointDnsSetup } from './endpoint-dns-setup.tsx';

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

/** A provisioned HTTP endpoint with an uploaded certificate on www.example.com (the server's virtual domain). */
const customCertificate = (fields: Parameters<typeof vhostResourceFixture>[0] = {}) =>
  fromVhostResource(
    vhostResourceFixture({
      id: '8',
      default: false,
      acme: false,
      user_domain: '',
      virtual_domain: 'www.example.com',
      external_host: 'alb-8.on-berth.localhost',
      ...fields,
      _links: { certificate: { href: 'http://api.test/certificates/3' }, ...fields._links },
    }),
  );

describe('dnsRecords for a custom certificate (issue 41)', () => {
  it('points the domain at the endpoint, and asks for no challenge', () => {
    expect(dnsRecords(customCertificate()).map((record) => [record.name, record.target])).toEqual([
      ['www.example.com', 'alb-8.on-berth.localhost'],
    ]);
    // A shared one names its domain as the user's.
    expect(
      dnsRecords(
        customCertificate({ user_domain: 'shop.example.com', virtual_domain: 'shop.example.com' }),
      ).map((record) => record.name),
    ).toEqual(['shop.example.com']);
  });

  it('needs nothing without a domain of its own or without a certificate', () => {
    expect(dnsRecords(customCertificate({ virtual_domain: 'alb-8.on-berth.localhost' }))).toEqual([]);
    const defaultDomain = fromVhostResource(vhostResourceFixture({ id: '9' }));
    expect(dnsRecords(defaultDomain)).toEqual([]);
  });
});

describe('EndpointDnsSetup', () => {
  it('copies each record value on its own, by a button named after it', async () => {
    const user = userEvent.setup();
    render(<EndpointDnsSetup endpoint={managed(null)} denial={null} onRenew={async () => {}} />);
    const table = screen.getByRole('table', { name: 'DNS records' });
    await user.click(
      within(table).getByRole('button', { name: 'Copy target of _acme-challenge.www.example.com' }),
    );
    expect(await navigator.clipboard.readText()).toBe('acme-7.on-berth.localhost');
    await user.click(within(table).getByRole('button', { name: 'Copy name www.example.com' }));
    expect(await navigator.clipboard.readText()).toBe('www.example.com');
    expect(within(table).getByRole('button', { name: 'Copy target of www.example.com' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Verify DNS and issue the certificate' })).toBeInTheDocument();
  });

  it('gives a custom certificate the traffic record, with nothing to renew', () => {
    const onRenew = vi.fn(async () => {});
    render(<EndpointDnsSetup endpoint={customCertificate()} denial={null} onRenew={onRenew} />);
    const table = screen.getByRole('table', { name: 'DNS records' });
    expect(within(table).getAllByRole('row')).toHaveLength(2);
    expect(within(table).getByRole('button', { name: 'Copy name www.example.com' })).toBeInTheDocument();
    expect(screen.getByText(/serves your uploaded certificate/)).toBeInTheDocument();
    expect(screen.queryByText(/ACME status/)).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Verify DNS/ })).not.toBeInTheDocument();
  });
});
