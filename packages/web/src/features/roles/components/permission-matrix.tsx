import {
  emptyStateMessages,
  type PermissionCellState,
  permissionCellState,
  type RoleType,
  SCOPE_DESCRIPTIONS,
  SCOPE_LABELS,
  SCOPES,
  type Scope,
} from '@berth/core';
import { useState } from 'react';
import { Banner } from '../../../components/ui/banner.tsx';
import { EmptyState } from '../../../components/ui/empty-state.tsx';
import { ScopedCheckbox } from '../../../components/ui/scoped-checkbox.tsx';
import { StaticTable } from '../../../components/ui/static-table.tsx';
import './roles.css';
import { messageOf } from '../../../lib/error-message.ts';

export interface MatrixEnvironment {
  id: string;
  handle: string;
  /** The role's permissions on this environment. */
  permissions: readonly { id: string; scope: Scope }[];
}

export interface PermissionMatrixProps {
  roleName: string;
  roleType: RoleType;
  environments: readonly MatrixEnvironment[];
  /** Why the caller may not change this cell (not a manager, a provisioned role, a scope they lack), or null. */
  cellDenial: (environmentId: string, scope: Scope, state: PermissionCellState) => string | null;
  onGrant: (environmentId: string, scope: Scope) => Promise<unknown>;
  onRevoke: (permissionId: string) => Promise<unknown>;
}

const STATE_TEXT: Record<PermissionCellState, string> = {
  granted: 'granted',
  inherited: 'inherited',
  denied: 'not granted',
};

/**
 * spec 1 §6 the permission matrix: one row per environment, one column per scope. Each cell is granted,
 * inherited or denied (core `permissionCellState`); implied scopes appear checked and locked. Checking a
 * cell creates the permission, unchecking a granted one deletes it.
 */
export function PermissionMatrix({
  roleName,
  roleType,
  environments,
  cellDenial,
  onGrant,
  onRevoke,
}: PermissionMatrixProps) {
  const [busy, setBusy] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);

  if (environments.length === 0) return <EmptyState title={emptyStateMessages.noEnvironments} />;

  const toggle = async (environment: MatrixEnvironment, scope: Scope, state: PermissionCellState) => {
    const key = `${environment.id}:${scope}`;
    setBusy(key);
    setFailure(null);
    try {
      if (state === 'denied') await onGrant(environment.id, scope);
      else {
        const permission = environment.permissions.find((item) => item.scope === scope);
        if (permission) await onRevoke(permission.id);
      }
    } catch (error) {
      setFailure(messageOf(error));
    } finally {
      setBusy(null);
    }
  };

  const holdsAny = environments.some((environment) => environment.permissions.length > 0);
  const ownerRole = roleType === 'owner' || roleType === 'platform_owner';

  return (
    <div className="section-stack">
      {failure ? <Banner variant="error">{failure}</Banner> : null}
      {!holdsAny && !ownerRole ? <p className="matrix-note">{emptyStateMessages.noPermissions}</p> : null}
      <div className="card data-table">
        <StaticTable
          caption={`Environment permissions of ${roleName}`}
          // Issue 41: on a phone each environment is a card listing all eight scopes.
          className="permission-matrix table-cards"
          columns={[
            'Environment',
            ...SCOPES.map((scope) => ({ label: SCOPE_LABELS[scope], className: 'matrix-scope' })),
          ]}
        >
          {environments.map((environment) => {
            const held = environment.permissions.map((permission) => permission.scope);
            return (
              <tr key={environment.id}>
                <th scope="row" className="cell-strong">
                  {environment.handle}
                </th>
                {SCOPES.map((scope) => {
                  const state = permissionCellState(roleType, held, scope);
                  const denial = state === 'inherited' ? null : cellDenial(environment.id, scope, state);
                  const label = `${SCOPE_LABELS[scope]} on ${environment.handle}`;
                  return (
                    <td
                      key={scope}
                      className={`matrix-cell matrix-${state}`}
                      data-label={SCOPE_LABELS[scope]}
                    >
                      {/* spec 1 §6: implied scopes appear checked and locked (focusable, not disabled). */}
                      <ScopedCheckbox
                        aria-label={label}
                        data-state={state}
                        title={`${SCOPE_LABELS[scope]}: ${STATE_TEXT[state]}`}
                        checked={state !== 'denied'}
                        denial={denial}
                        locked={state === 'inherited' || busy !== null}
                        onChange={() => void toggle(environment, scope, state)}
                      />
                    </td>
                  );
                })}
              </tr>
            );
          })}
        </StaticTable>
      </div>
      <p className="matrix-legend">
        <span className="matrix-swatch matrix-granted" aria-hidden="true" /> granted{' '}
        <span className="matrix-swatch matrix-inherited" aria-hidden="true" /> inherited: given by another
        scope (any scope gives Basic Visibility; Deployment gives Ops; Sensitive Access gives Full Visibility;
        Environment Admin gives all), checked and locked{' '}
        <span className="matrix-swatch matrix-denied" aria-hidden="true" /> not granted
      </p>
      {!ownerRole ? (
        <section className="card card-body" aria-label={`What members of ${roleName} can do`}>
          <h2 className="section-title">What members of {roleName} can do</h2>
          <ul className="matrix-summary">
            {environments.map((environment) => {
              const held = environment.permissions.map((permission) => permission.scope);
              const can = SCOPES.filter((scope) => permissionCellState(roleType, held, scope) !== 'denied');
              return (
                <li key={environment.id}>
                  <strong>{environment.handle}</strong>:{' '}
                  {can.length === 0
                    ? 'nothing; they do not see it.'
                    : `${can.map((scope) => SCOPE_LABELS[scope]).join(', ')}. Not: ${
                        SCOPES.filter((scope) => !can.includes(scope))
                          .map((scope) => SCOPE_LABELS[scope])
                          .join(', ') || 'nothing left'
                      }.`}
                </li>
              );
            })}
          </ul>
        </section>
      ) : null}
      <details className="card card-body matrix-columns">
        <summary>What each column allows</summary>
        <dl className="detail-list">
          {SCOPES.map((scope) => (
            <div key={scope} className="detail-item">
              <dt>{SCOPE_LABELS[scope]}</dt>
              <dd>{SCOPE_DESCRIPTIONS[scope]}</dd>
            </div>
          ))}
        </dl>
      </details>
    </div>
  );
}
