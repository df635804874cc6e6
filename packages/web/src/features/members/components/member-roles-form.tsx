import { canUncheckRole, memberMessages, roleSelectionChange } from '@berth/core';
import { useId } from 'react';
import { z } from 'zod';
import { Form, SubmitRow, useSchemaForm } from '../../../components/ui/form.tsx';
import { ScopedCheckbox } from '../../../components/ui/scoped-checkbox.tsx';
import './members.css';

/** The chosen role ids; the checkboxes already keep at least one (core canUncheckRole). */
const memberRolesForm = z.object({ roleIds: z.array(z.string()).transform((ids) => new Set(ids)) });

export interface RoleChoice {
  id: string;
  name: string;
  /** Why this role's checkbox is locked (role management, provisioning), or null. */
  lockedReason: string | null;
}

export interface MemberRolesFormProps {
  /** The roles the actor sees (spec 1 §6 hides compliance roles, and owner roles from Deploy Owners). */
  roles: readonly RoleChoice[];
  /** Every role the member holds, listed or not. */
  memberRoleIds: ReadonlySet<string>;
  /** Why Save is unavailable (spec 1 §6), or null. */
  saveDenial: string | null;
  /** Saves the new selection; a rejection's message is shown. */
  onSave: (chosen: ReadonlySet<string>) => Promise<unknown>;
}

/**
 * spec 1 §4 Role editing: a checkbox per role; Save is enabled only when the selection changed; the last
 * remaining role cannot be unchecked.
 */
export function MemberRolesForm({ roles, memberRoleIds, saveDenial, onSave }: MemberRolesFormProps) {
  const id = useId();
  const form = useSchemaForm(memberRolesForm, {
    defaultValues: { roleIds: [...memberRoleIds] },
    blocked: ({ roleIds }) => saveDenial !== null || !selectionChanged(memberRoleIds, new Set(roleIds)),
    onSubmit: ({ roleIds }) => onSave(roleIds),
  });
  const chosen: ReadonlySet<string> = new Set(form.watch('roleIds'));
  const changed = selectionChanged(memberRoleIds, chosen);

  const toggle = (roleId: string) => {
    const next = new Set(chosen);
    if (next.has(roleId)) {
      if (!canUncheckRole(next, roleId)) return;
      next.delete(roleId);
    } else next.add(roleId);
    form.setValue('roleIds', [...next]);
  };

  return (
    <Form form={form}>
      <fieldset className="role-checkboxes">
        <legend>Roles</legend>
        {roles.map((role) => {
          const inputId = `${id}-${role.id}`;
          const checked = chosen.has(role.id);
          const lastRole = checked && !canUncheckRole(chosen, role.id);
          const reason = role.lockedReason ?? (lastRole ? memberMessages.lastRole : null);
          return (
            <div key={role.id} className="role-checkbox">
              <ScopedCheckbox
                id={inputId}
                placement="right"
                checked={checked}
                denial={reason}
                onChange={() => toggle(role.id)}
              />
              <label htmlFor={inputId}>{role.name}</label>
            </div>
          );
        })}
      </fieldset>
      <SubmitRow denial={saveDenial} disabled={!changed}>
        Save
      </SubmitRow>
    </Form>
  );
}

function selectionChanged(current: ReadonlySet<string>, chosen: ReadonlySet<string>): boolean {
  const { added, removed } = roleSelectionChange(current, chosen);
  return added.length + removed.length > 0;
}
