import {
  CERTIFICATE_EXPIRY_WARNING_DAYS,
  describePrivilegedActivity,
  type PrivilegedActivityItem,
  type SecuritySummaryResource,
} from '@berth/core';
import type { ReactNode } from 'react';
import { QueryState } from '../../../components/ui/query-state.tsx';
import { formatDateTime } from '../../../lib/format-date.ts';
import { useSecuritySummary } from '../api/use-security-summary.ts';
import './security.css';

type Tone = 'success' | 'error' | 'progress' | 'neutral';

function StatusPill({ tone, children }: { tone: Tone; children: string }) {
  return (
    <span className={tone === 'neutral' ? 'status-pill' : `status-pill status-pill-${tone}`}>{children}</span>
  );
}

function Card({
  title,
  status,
  headline,
  wide,
  children,
}: {
  title: string;
  status?: ReactNode;
  headline?: string;
  wide?: boolean;
  children?: ReactNode;
}) {
  return (
    <section className={wide ? 'card security-card security-wide' : 'card security-card'} aria-label={title}>
      <div className="security-card-header">
        <h2 className="security-card-title">{title}</h2>
        {status}
      </div>
      {headline ? <p className="security-headline">{headline}</p> : null}
      {children}
    </section>
  );
}

function Facts({ items }: { items: readonly [string, ReactNode][] }) {
  return (
    <dl className="security-facts">
      {items.map(([term, value]) => (
        <div key={term}>
          <dt>{term}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}

/** "3 of 4", as each card's headline counts. */
const ofTotal = (part: number, total: number, what: string) => `${part} of ${total} ${what}`;
const yesNo = (value: boolean) => (value ? 'Yes' : 'No');

/** A bar of the share `part / total`; the headline beside it says the numbers, so it is decoration. */
function Meter({ part, total }: { part: number; total: number }) {
  const percent = total === 0 ? 0 : Math.round((part / total) * 100);
  return (
    <div className="security-meter" aria-hidden="true">
      <span style={{ width: `${percent}%` }} />
    </div>
  );
}

/** A list of names the summary gives, noting when there are more than it lists. */
function Names({ label, names, total }: { label: string; names: readonly string[]; total: number }) {
  if (names.length === 0) return null;
  return (
    <>
      <p className="security-note">{label}</p>
      <ul className="security-names" aria-label={label}>
        {names.map((name) => (
          <li key={name}>{name}</li>
        ))}
        {total > names.length ? <li>{`and ${total - names.length} more`}</li> : null}
      </ul>
    </>
  );
}

function TwoFactorCard({ facts }: { facts: SecuritySummaryResource['two_factor'] }) {
  const missing = facts.members - facts.enabled;
  return (
    <Card
      title="Two-factor authentication"
      status={
        missing === 0 ? (
          <StatusPill tone="success">All members</StatusPill>
        ) : (
          <StatusPill tone="error">{`${missing} without 2FA`}</StatusPill>
        )
      }
      headline={ofTotal(
        facts.enabled,
        facts.members,
        facts.members === 1 ? 'member uses 2FA' : 'members use 2FA',
      )}
    >
      <Meter part={facts.enabled} total={facts.members} />
      <p className="security-note">
        Members who can reach this environment: its owners and the roles given a permission on it.
      </p>
      <Names
        label="Without 2FA"
        names={facts.without.map((person) => `${person.name} (${person.email})`)}
        total={missing}
      />
    </Card>
  );
}

function SsoCard({ facts }: { facts: SecuritySummaryResource['sso'] }) {
  const tone: Tone = facts.enforced ? 'success' : facts.configured ? 'progress' : 'neutral';
  const label = facts.enforced ? 'Enforced' : facts.configured ? 'Not enforced' : 'Not configured';
  return (
    <Card title="Single sign-on" status={<StatusPill tone={tone}>{label}</StatusPill>}>
      <Facts
        items={[
          ['SAML configured', yesNo(facts.configured)],
          ['Enforced for members', yesNo(facts.enforced)],
        ]}
      />
      <p className="security-note">
        Owners and members on the SSO exception list may still sign in with a password.
      </p>
    </Card>
  );
}

function BackupsCard({ facts }: { facts: SecuritySummaryResource['backups'] }) {
  const { retention } = facts;
  const allOn = facts.enabled === facts.databases;
  return (
    <Card
      title="Database backups"
      status={
        facts.databases === 0 ? (
          <StatusPill tone="neutral">No databases</StatusPill>
        ) : allOn && facts.overdue === 0 ? (
          <StatusPill tone="success">All backed up</StatusPill>
        ) : (
          <StatusPill tone="error">Needs attention</StatusPill>
        )
      }
      headline={ofTotal(facts.enabled, facts.databases, 'databases back up daily')}
    >
      <Facts
        items={[
          ['No backup in the last day', String(facts.overdue)],
          ['Latest backup', formatDateTime(facts.last_backup_at, 'None yet')],
          [
            'Daily / monthly / yearly kept',
            `${retention.daily} / ${retention.monthly} / ${retention.yearly}`,
          ],
          ['Point-in-time recovery', retention.pitr_days === 0 ? 'Off' : `${retention.pitr_days} days`],
          ['Copy to another region', yesNo(retention.make_copy)],
          ['Final backup on deprovision', yesNo(retention.keep_final)],
        ]}
      />
      <Names
        label="Backups turned off"
        names={facts.without_backups}
        total={facts.databases - facts.enabled}
      />
    </Card>
  );
}

function EncryptionCard({ facts }: { facts: SecuritySummaryResource['encryption'] }) {
  const all = facts.encrypted === facts.disks;
  return (
    <Card
      title="Database encryption"
      status={
        facts.disks === 0 ? (
          <StatusPill tone="neutral">No disks</StatusPill>
        ) : all ? (
          <StatusPill tone="success">Encrypted</StatusPill>
        ) : (
          <StatusPill tone="error">{`${facts.disks - facts.encrypted} unencrypted`}</StatusPill>
        )
      }
      headline={ofTotal(facts.encrypted, facts.disks, 'database disks encrypted at rest')}
    >
      <p className="security-note">
        As each disk's runtime reports it. Database credentials are always stored sealed (AES-GCM).
      </p>
    </Card>
  );
}

function EndpointsCard({ facts }: { facts: SecuritySummaryResource['endpoints'] }) {
  const attention = facts.without_tls > 0 || facts.certificates_expiring > 0;
  return (
    <Card
      title="Endpoints"
      status={
        facts.total === 0 ? (
          <StatusPill tone="neutral">No endpoints</StatusPill>
        ) : attention ? (
          <StatusPill tone="error">Needs attention</StatusPill>
        ) : (
          <StatusPill tone="success">TLS everywhere</StatusPill>
        )
      }
      headline={ofTotal(facts.tls, facts.total, 'endpoints use TLS')}
    >
      <Facts
        items={[
          ['Without TLS (plain TCP)', String(facts.without_tls)],
          ['With an IP allowlist', String(facts.ip_allowlisted)],
          ['Open to any address', String(facts.open_to_all)],
          ['Internal only', String(facts.internal)],
          [
            `Certificates ending within ${CERTIFICATE_EXPIRY_WARNING_DAYS} days`,
            String(facts.certificates_expiring),
          ],
        ]}
      />
    </Card>
  );
}

function ActivityCard({ items }: { items: readonly PrivilegedActivityItem[] }) {
  return (
    <Card title="Recent privileged activity" wide>
      {items.length === 0 ? (
        <p className="security-note">
          No role changes, impersonations or token revocations recorded in this organization yet.
        </p>
      ) : (
        <ol className="security-activity" aria-label="Privileged changes, newest first">
          {items.map((item) => (
            <li key={item.id}>
              <span>
                {describePrivilegedActivity({
                  kind: item.kind,
                  actorName: item.actor_name,
                  subjectName: item.subject_name,
                  detail: item.detail,
                })}
              </span>
              <time dateTime={item.created_at}>{formatDateTime(item.created_at)}</time>
            </li>
          ))}
        </ol>
      )}
    </Card>
  );
}

/** The Security & Compliance facts of one environment (issue 38), as cards. */
export function SecurityDashboard({ environmentId }: { environmentId: string }) {
  const summary = useSecuritySummary(environmentId);
  return (
    <QueryState query={summary} loadingLabel="Loading security and compliance" skeletonLines={6}>
      {(data) => (
        <div className="security-grid">
          <TwoFactorCard facts={data.two_factor} />
          <SsoCard facts={data.sso} />
          <BackupsCard facts={data.backups} />
          <EncryptionCard facts={data.encryption} />
          <EndpointsCard facts={data.endpoints} />
          <ActivityCard items={data.privileged_activity} />
        </div>
      )}
    </QueryState>
  );
}
