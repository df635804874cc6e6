import { useState } from 'react';
import { Banner } from '../../../components/ui/banner.tsx';
import { CopyButton } from '../../../components/ui/copy-button.tsx';
import { ScopedButton } from '../../../components/ui/permission-button.tsx';
import { StaticTable } from '../../../components/ui/static-table.tsx';
import {
  acmeStatusLabel,
  customCertificateDomain,
  type Endpoint,
  endpointHostname,
} from '../../../resources/endpoints/endpoint.hal.ts';
import './endpoints.css';
import { messageOf } from '../../../lib/error-message.ts';

interface DnsRecord {
  name: string;
  target: string;
  purpose: string;
}

/**
 * The CNAME records a managed HTTPS endpoint needs (contract §4.3 acme_configuration and
 * acme_dns_challenge_host): the domain to the endpoint, and `_acme-challenge` to the validation host.
 * An endpoint with a custom certificate needs the first only (issue 41): its certificate is uploaded.
 */
export function dnsRecords(endpoint: Endpoint): DnsRecord[] {
  const records: DnsRecord[] = [];
  const hostname = endpointHostname(endpoint);
  if (!endpoint.acme) {
    const domain = customCertificateDomain(endpoint);
    return domain && hostname
      ? [{ name: domain, target: hostname, purpose: 'Routes traffic to the endpoint' }]
      : [];
  }
  const names = endpoint.acmeConfiguration?.names?.length
    ? endpoint.acmeConfiguration.names
    : endpoint.userDomain
      ? [endpoint.userDomain]
      : [];
  for (const name of names) {
    if (hostname) records.push({ name, target: hostname, purpose: 'Routes traffic to the endpoint' });
  }
  const challenges = endpoint.acmeConfiguration?.challenges ?? [];
  for (const challenge of challenges) {
    const from = challenge.from?.name;
    const target = challenge.to?.find((item) => !item.legacy)?.name ?? challenge.to?.[0]?.name;
    // The HTTP challenge is the traffic record itself; list each record once.
    const known = records.some((record) => record.name === from && record.target === target);
    if (from && target && !known)
      records.push({ name: from, target, purpose: 'Validates the certificate request' });
  }
  if (challenges.length === 0 && endpoint.acmeDnsChallengeHost) {
    for (const name of names) {
      records.push({
        name: `_acme-challenge.${name.replace(/^\*\./, '')}`,
        target: endpoint.acmeDnsChallengeHost,
        purpose: 'Validates the certificate request',
      });
    }
  }
  return records;
}

export interface EndpointDnsSetupProps {
  endpoint: Endpoint;
  /** Why the caller may not renew (action vhost.renew: renewing runs an operation), or null. */
  denial: string | null;
  /** Posts the `renew` operation (contract §6) once the records are in place. */
  onRenew: () => Promise<unknown>;
}

/**
 * spec 2 §2 DNS Configuration tab (managed HTTPS endpoints, once provisioned; issue 41: custom-certificate
 * endpoints on a domain of their own too, which need the same traffic record and nothing to renew).
 * Each record's name and target has its own Copy button, named after what it copies.
 */
export function EndpointDnsSetup({ endpoint, denial, onRenew }: EndpointDnsSetupProps) {
  const records = dnsRecords(endpoint);
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const renew = async () => {
    setFailure(null);
    setBusy(true);
    try {
      await onRenew();
    } catch (error) {
      setFailure(messageOf(error));
    } finally {
      setBusy(false);
    }
  };
  return (
    <section className="card card-body section-stack" aria-label="DNS Configuration">
      <h2 className="section-title">DNS Configuration</h2>
      {!endpoint.acme ? (
        <Banner variant="info">
          The endpoint serves your uploaded certificate. Point your domain at it with this record; traffic
          reaches the app once the record is in place.
        </Banner>
      ) : endpoint.acmeStatus === 'ready' ? (
        <Banner variant="success">
          The managed certificate is issued. Keep these records in place for renewals.
        </Banner>
      ) : endpoint.acmeStatus === 'transitioning' ? (
        <Banner variant="info">
          A transitional certificate serves traffic until the managed one is issued. Create these records to
          finish.
        </Banner>
      ) : (
        <Banner variant="warning">
          The certificate is not issued yet, and the app is unavailable on this domain once its DNS points
          here. Create these records to finish.
        </Banner>
      )}
      {endpoint.acme ? <p>ACME status: {acmeStatusLabel(endpoint)}</p> : null}
      {records.length === 0 ? (
        <p>No DNS records are needed yet.</p>
      ) : (
        <StaticTable
          caption="DNS records"
          className="dns-records"
          columns={['Type', 'Name', 'Target', 'Purpose']}
        >
          {records.map((record) => (
            <tr key={`${record.name}-${record.target}`}>
              <td>CNAME</td>
              <td>
                <span className="dns-record-value">
                  <code>{record.name}</code>
                  <CopyButton text={record.name} label={`Copy name ${record.name}`} />
                </span>
              </td>
              <td>
                <span className="dns-record-value">
                  <code>{record.target}</code>
                  <CopyButton text={record.target} label={`Copy target of ${record.name}`} />
                </span>
              </td>
              <td>{record.purpose}</td>
            </tr>
          ))}
        </StaticTable>
      )}
      {failure ? <Banner variant="error">{failure}</Banner> : null}
      {!endpoint.acme || endpoint.acmeStatus === 'ready' ? null : (
        <div>
          <ScopedButton denial={denial} loading={busy} onClick={() => void renew()}>
            Verify DNS and issue the certificate
          </ScopedButton>
        </div>
      )}
    </section>
  );
}
