import {
  emptyStateMessages,
  inheritanceReason,
  type PermissionCellState,
  permissionCellState,
  type RoleType,
  SCOPE_DESCRIPTIONS,
  SCOPE_EVERYDAY_LABELS,
  SCOPE_LABELS,
  SCOPES,
  type Scope,
} from '@berth/core';
import { useEffect, useId, useState } from 'react';
import { Banner } from '../../../components/ui/banner.tsx';
import { EmptyState } from '../../../components/ui/empty-state.tsx';
import { ScopedCheckbox } from '../../../components/ui/scoped-checkbox.tsx';
import { StaticTable } from '../../../components/ui/static-table.tsx';
import { Tooltip } from '../../../components/ui/tooltip.tsx';
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

/** How long "Saved" stays beside a changed box: long enough to read, gone before the next change. */
export const SAVED_MARK_MS = 2500;

/** A change just saved: which box, and what a screen reader is told. */
interface SavedChange {
  key: string;
  announcement: string;
}

/** A column's name: everyday words first, the spec's label under them, what it allows in its tooltip. */
function ScopeColumnName({ scope }: { scope: Scope }) {
  return (
    <Tooltip
      content={`${SCOPE_DESCRIPTIONS[scope]}.`}
      detail={`In the spec: ${SCOPE_LABELS[scope]} (${scope}).`}
      placement="bottom"
    >
      {(trigger) => (
        // Focusable so keyboard users reach the tooltip too.
        // biome-ignore lint/a11y/noNoninteractiveTabindex: the tooltip's trigger, read by focus.
        <span className="matrix-column-name" tabIndex={0} {...trigger}>
          <span className="matrix-column-everyday">{SCOPE_EVERYDAY_LABELS[scope]}</span>
          <span className="matrix-column-spec">{SCOPE_LABELS[scope]}</span>
        </span>
      )}
    </Tooltip>
  );
}

/** The inherited mark: a link icon and the word, beside the box (issue 41: more than a shade). */
function InheritedMark() {
  return (
    <span className="matrix-inherited-mark" aria-hidden="true">
      <svg
        aria-hidden="true"
        viewBox="0 0 16 16"
        width="12"
        height="12"
        fill="none"
        stroke="currentColor"
        strokeWidth="1.8"
        strokeLinecap="round"
      >
        <path d="M6.5 9.5l3-3M7 4.5l1-1a2.5 2.5 0 013.5 3.5l-1 1M9 11.5l-1 1A2.5 2.5 0 014.5 9l1-1" />
      </svg>
      inherited
    </span>
  );
}

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
  const [saved, setSaved] = useState<SavedChange | null>(null);
  const idBase = useId();

  // "Saved" is gone after a moment; a newer change restarts the wait.
  useEffect(() => {
    if (!saved) return;
    const timer = window.setTimeout(() => setSaved(null), SAVED_MARK_MS);
    return () => window.clearTimeout(timer);
  }, [saved]);

  if (environments.length === 0) return <EmptyState title={emptyStateMessages.noEnvironments} />;

  const toggle = async (environment: MatrixEnvironment, scope: Scope, state: PermissionCellState) => {
    const key = `${environment.id}:${scope}`;
    setBusy(key);
    setFailure(null);
    setSaved(null);
    try {
      if (state === 'denied') await onGrant(environment.id, scope);
      else {
        const permission = environment.permissions.find((item) => item.scope === scope);
        if (permission) await onRevoke(permission.id);
      }
      const change = state === 'denied' ? 'granted' : 'removed';
      setSaved({
        key,
        announcement: `Saved: ${SCOPE_LABELS[scope]} on ${environment.handle} ${change}.`,
      });
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
      {/* Issue 41: each saved change is told politely; the live region is in the page before it speaks. */}
      <p className="visually-hidden" role="status" aria-live="polite">
        {saved?.announcement ?? ''}
      </p>
      {failure ? <Banner variant="error">{failure}</Banner> : null}
      {!holdsAny && !ownerRole ? <p className="matrix-note">{emptyStateMessages.noPermissions}</p> : null}
      <div className="card data-table">
        <StaticTable
          caption={`Environment permissions of ${roleName}`}
          // Issue 41: on a phone each environment is a card listing all eight scopes.
          className="permission-matrix table-cards"
          columns={[
            'Environment',
            ...SCOPES.map((scope) => ({
              label: SCOPE_LABELS[scope],
              className: 'matrix-scope',
              content: <ScopeColumnName scope={scope} />,
            })),
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
                  const reason = inheritanceReason(roleType, held, scope);
                  const reasonId = `${idBase}-${environment.id}-${scope}`;
                  const justSaved = saved?.key === `${environment.id}:${scope}`;
                  return (
                    <td
                      key={scope}
                      className={`matrix-cell matrix-${state}`}
                      // Phone cards name each box by its column: the everyday words and the spec's label.
                      data-label={`${SCOPE_EVERYDAY_LABELS[scope]} (${SCOPE_LABELS[scope]})`}
                    >
                      <span className="matrix-cell-body">
                        {/* spec 1 §6: implied scopes appear checked and locked (focusable, not disabled). */}
                        <ScopedCheckbox
                          aria-label={label}
                          aria-describedby={reason ? reasonId : undefined}
                          data-state={state}
                          title={reason ?? `${SCOPE_LABELS[scope]}: ${STATE_TEXT[state]}`}
                          checked={state !== 'denied'}
                          denial={denial}
                          locked={state === 'inherited' || busy !== null}
                          onChange={() => void toggle(environment, scope, state)}
                        />
                        {reason ? (
                          <>
                            <InheritedMark />
                            <span id={reasonId} className="visually-hidden">
                              {reason}
                            </span>
                          </>
                        ) : null}
                        {/* Read by the status line above; seen here, beside the box that changed. */}
                        {justSaved ? (
                          <span className="matrix-saved" aria-hidden="true">
                            Saved
                          </span>
                        ) : null}
                      </span>
                    </td>
                  );
                })}
              </tr>
            );
          })}
        </StaticTable>
      </div>
      <p className="matrix-legend">
        Checked: granted.{' '}
        <span className="matrix-legend-mark">
          <InheritedMark />
        </span>{' '}
        inherited: given by another scope (any scope gives Basic Visibility; Deployment gives Ops; Sensitive
        Access gives Full Visibility; Environment Admin gives all), checked and locked. Unchecked: not
        granted. Each column's tooltip says what it allows.
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
              <dt>
                {SCOPE_EVERYDAY_LABELS[scope]} ({SCOPE_LABELS[scope]})
              </dt>
              <dd>{SCOPE_DESCRIPTIONS[scope]}</dd>
            </div>
          ))}
        </dl>
      </details>
    </div>
  );
}
