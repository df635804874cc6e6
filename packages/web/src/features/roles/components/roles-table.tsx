import { compareRoles, ROLE_TYPE_LABELS } from '@berth/core';
import { type ReactNode, useMemo } from 'react';
import { Link } from 'react-router';
import { DataTable, type DataTableColumn } from '../../../components/ui/data-table.tsx';
import type { Role } from '../../../resources/roles/role.hal.ts';

export interface RoleOverviewRow {
  role: Role;
  memberCount: number;
  /** What the role reaches: "All environments", "2 environments, 3 permissions", "No permissions set". */
  access: string;
}

export interface RolesTableProps {
  rows: readonly RoleOverviewRow[];
  roleHref: (id: string) => string;
  toolbar?: ReactNode;
  isLoading?: boolean;
  error?: Error | null;
}

const byRoleOrder = (a: RoleOverviewRow, b: RoleOverviewRow) => compareRoles(a.role, b.role);
const searchRole = (row: RoleOverviewRow) => [row.role.name, ROLE_TYPE_LABELS[row.role.type]];

/** spec 1 §2 Roles overview: the roles in the spec's order with their type, members and environments. */
export function RolesTable({ rows, roleHref, toolbar, isLoading, error }: RolesTableProps) {
  const columns = useMemo<DataTableColumn<RoleOverviewRow>[]>(
    () => [
      {
        id: 'name',
        header: 'Role',
        sortValue: (row) => row.role.name.toLowerCase(),
        cell: (row) => (
          <Link className="cell-strong" to={roleHref(row.role.id)}>
            {row.role.name}
          </Link>
        ),
      },
      {
        id: 'type',
        header: 'Type',
        cell: (row) => (
          <>
            {ROLE_TYPE_LABELS[row.role.type]}
            {row.role.scimCreated ? <span className="badge">SCIM</span> : null}
          </>
        ),
      },
      {
        id: 'members',
        header: 'Members',
        align: 'right',
        sortValue: (row) => row.memberCount,
        cell: (row) => row.memberCount,
      },
      { id: 'environments', header: 'Environments', cell: (row) => row.access },
    ],
    [roleHref],
  );
  return (
    <DataTable
      label="Roles"
      rows={rows}
      columns={columns}
      getRowId={(row) => row.role.id}
      searchText={searchRole}
      searchPlaceholder="Search by role name"
      defaultSort={byRoleOrder}
      toolbar={toolbar}
      isLoading={isLoading}
      error={error}
    />
  );
}
