import { Button } from '../../../components/ui/button.tsx';
import type { Organization } from '../../../resources/organizations/organization.hal.ts';

/** spec 3 §6: the badge of an organization that enforces SSO. */
export const SSO_ENFORCED_BADGE = 'SSO Enforced';

export interface OrganizationListProps {
  label: string;
  organizations: readonly Organization[];
  selectedId: string | null;
  pendingId: string | null;
  actionLabel: string;
  onChoose: (organization: Organization) => void;
}

export function OrganizationList({
  label,
  organizations,
  selectedId,
  pendingId,
  actionLabel,
  onChoose,
}: OrganizationListProps) {
  return (
    <ul className="organization-list" aria-label={label}>
      {organizations.map((organization) => {
        const current = organization.id === selectedId;
        return (
          <li key={organization.id} className="organization-row" aria-current={current || undefined}>
            <span className="organization-avatar" aria-hidden="true">
              {organization.name.slice(0, 1).toUpperCase() || '?'}
            </span>
            <span className="organization-name">
              {organization.name}
              {organization.ssoEnforced ? (
                <span className="badge badge-warning">{SSO_ENFORCED_BADGE}</span>
              ) : null}
              {current ? <span className="badge badge-primary">Current</span> : null}
            </span>
            <Button
              variant={current ? 'ghost' : 'secondary'}
              size="sm"
              loading={pendingId === organization.id}
              disabled={pendingId !== null}
              aria-label={`${actionLabel} ${organization.name}`}
              onClick={() => onChoose(organization)}
            >
              {actionLabel}
            </Button>
          </li>
        );
      })}
    </ul>
  );
}
