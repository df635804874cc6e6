import { permissionMessages } from '@berth/core';
import type { ReactNode } from 'react';
import type { Home } from '../../../resources/home/home.hal.ts';
import { HomeCard, HomeFacts } from './home-card.tsx';

const ofTotal = (some: number, all: number, noun: string) =>
  `${some.toLocaleString()} of ${all.toLocaleString()} ${noun}`;

function signOn(security: NonNullable<Home['security']>): string {
  if (security.ssoEnforced) return 'Enforced';
  return security.ssoConfigured ? 'Configured, not enforced' : 'Not configured';
}

/**
 * spec 3 §2 "Security and compliance cards", as far as Berth knows today. Like the Security & Compliance
 * entry, they need Full Visibility on some environment; without it the card says so in the spec's words.
 */
export function SecurityCard({ security, action }: { security: Home['security']; action?: ReactNode }) {
  return (
    <HomeCard title="Security & Compliance" action={security ? action : undefined}>
      {security ? (
        <HomeFacts
          facts={[
            {
              name: 'Two-factor authentication',
              value: ofTotal(security.membersWithTwoFactor, security.members, 'members'),
            },
            { name: 'Single sign-on', value: signOn(security) },
            {
              name: 'Database backups',
              value: ofTotal(security.databasesWithBackups, security.databases, 'databases'),
            },
            {
              name: 'IP allowlists',
              value: ofTotal(security.endpointsWithIpAllowlist, security.endpoints, 'endpoints'),
            },
          ]}
        />
      ) : (
        <p className="home-empty">{permissionMessages.fullVisibilityAnywhere}</p>
      )}
    </HomeCard>
  );
}
