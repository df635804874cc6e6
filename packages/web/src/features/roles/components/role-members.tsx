import { emptyStateMessages, memberMessages, scimMessages, toastMessages } from '@berth/core';
import { type FormEvent, useRef, useState } from 'react';
import { Banner } from '../../../components/ui/banner.tsx';
import { ConfirmButton } from '../../../components/ui/confirm-button.tsx';
import { EmptyState } from '../../../components/ui/empty-state.tsx';
import { ScopedButton } from '../../../components/ui/permission-button.tsx';
import { ScopedCheckbox } from '../../../components/ui/scoped-checkbox.tsx';
import { SelectField } from '../../../components/ui/select-field.tsx';
import { StaticTable } from '../../../components/ui/static-table.tsx';
import './roles.css';
import { messageOf } from '../../../lib/error-message.ts';

export interface RoleMemberRow {
  membershipId: string;
  userId: string;
  name: string;
  email: string;
  privileged: boolean;
  /** Managed through provisioning (the user has an external id). */
  managed: boolean;
  /** This is the user's only role in the organization (among those the caller sees): it stays (spec 1 §4). */
  lastRole: boolean;
}

export interface MemberCandidate {
  id: string;
  name: string;
  email: string;
  managed: boolean;
}

export interface RoleMembersProps {
  roleName: string;
  /** The role was created through provisioning: its managed users stay put (spec 1 §6). */
  roleManaged: boolean;
  members: readonly RoleMemberRow[];
  /** Organization members who do not hold the role yet. */
  candidates: readonly MemberCandidate[];
  /** core roleMembersDenial: why the caller may not change the members, or null. */
  denial: string | null;
  onAdd: (userId: string) => Promise<unknown>;
  onRemove: (membershipId: string) => Promise<unknown>;
  onSetRoleAdmin: (membershipId: string, privileged: boolean) => Promise<unknown>;
}

/**
 * spec 1 §2 Role members: who holds the role, their role admin (privileged) flag, toggled by those who can
 * manage (spec 1 §6), adding an existing organization member and removing one.
 */
export function RoleMembers({
  roleName,
  roleManaged,
  members,
  candidates,
  denial,
  onAdd,
  onRemove,
  onSetRoleAdmin,
}: RoleMembersProps) {
  const container = useRef<HTMLDivElement>(null);
  const [chosen, setChosen] = useState('');
  const [busy, setBusy] = useState<string | null>(null);
  const [result, setResult] = useState<{ ok: boolean; message: string } | null>(null);

  const run = async (key: string, action: () => Promise<unknown>, success: string) => {
    setBusy(key);
    setResult(null);
    try {
      await action();
      setResult({ ok: true, message: success });
      return true;
    } catch (error) {
      setResult({ ok: false, message: messageOf(error) });
      return false;
    } finally {
      setBusy(null);
    }
  };

  const candidate = candidates.find((item) => item.id === chosen);
  const addDenial = denial ?? (candidate && roleManaged && candidate.managed ? scimMessages.cannotAdd : null);
  const add = async (event: FormEvent) => {
    event.preventDefault();
    if (!candidate || addDenial) return;
    if (
      await run('add', () => onAdd(candidate.id), `Added ${candidate.name || candidate.email} to ${roleName}`)
    )
      setChosen('');
  };

  // After a removal the row is gone: focus the table, or the empty state once nobody is left.
  const focusAfterRemoval = () =>
    container.current?.querySelector<HTMLElement>('table') ??
    container.current?.querySelector<HTMLElement>('.empty-state-title');

  return (
    <div ref={container} className="section-stack">
      {result ? <Banner variant={result.ok ? 'success' : 'error'}>{result.message}</Banner> : null}
      <form className="card card-body role-members-add" aria-label="Add member" onSubmit={add}>
        <SelectField
          label="Organization member"
          placeholder={candidates.length ? 'Choose a member' : 'Every member already holds this role'}
          options={candidates.map((item) => ({
            value: item.id,
            label: item.name ? `${item.name} (${item.email})` : item.email,
          }))}
          value={chosen}
          disabled={denial !== null}
          onChange={(event) => setChosen(event.target.value)}
        />
        <ScopedButton type="submit" denial={addDenial} disabled={!candidate} loading={busy === 'add'}>
          Add Member
        </ScopedButton>
      </form>
      {members.length === 0 ? (
        <EmptyState title={emptyStateMessages.roleWithoutMembers(roleName)} />
      ) : (
        <div className="card data-table">
          <StaticTable
            caption={`Members of ${roleName}`}
            columns={['Name', 'Email', 'Role Admin', { label: 'Actions', hidden: true }]}
          >
            {members.map((member) => {
              const removeDenial =
                denial ??
                (roleManaged && member.managed ? scimMessages.cannotRemove : null) ??
                (member.lastRole ? memberMessages.lastRole : null);
              const who = member.name || member.email;
              return (
                <tr key={member.membershipId}>
                  <td className="cell-strong">{member.name}</td>
                  <td>{member.email}</td>
                  <td>
                    <ScopedCheckbox
                      role="switch"
                      aria-checked={member.privileged}
                      aria-label={`Role admin: ${who}`}
                      checked={member.privileged}
                      denial={denial}
                      locked={busy !== null}
                      onChange={() =>
                        void run(
                          `admin:${member.membershipId}`,
                          () => onSetRoleAdmin(member.membershipId, !member.privileged),
                          toastMessages.saved,
                        )
                      }
                    />
                  </td>
                  <td className="numeric">
                    {/* The same confirm step as the Members page. */}
                    <ConfirmButton
                      label={`Remove ${who}`}
                      confirmLabel={`Confirm remove ${who}`}
                      denial={removeDenial}
                      disabled={busy !== null}
                      focusAfter={focusAfterRemoval}
                      onConfirm={() =>
                        run(
                          `remove:${member.membershipId}`,
                          () => onRemove(member.membershipId),
                          `Removed ${who} from ${roleName}`,
                        )
                      }
                    >
                      Remove
                    </ConfirmButton>
                  </td>
                </tr>
              );
            })}
          </StaticTable>
        </div>
      )}
    </div>
  );
}
