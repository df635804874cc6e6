import { matchesMemberSearch, scimMessages } from '@berth/core';
import { Link } from 'react-router';
import { ConfirmButton } from '../../../components/ui/confirm-button.tsx';
import {
  DataTable,
  type DataTableColumn,
  type DataTableListProps,
} from '../../../components/ui/data-table.tsx';
import { valueColumn } from '../../../components/ui/data-table-columns.tsx';
import './members.css';

/** A member of the organization as the list shows it (spec 1 §2 Members list). */
export interface MemberRow {
  id: string;
  name: string;
  email: string;
  verified: boolean;
  otpEnabled: boolean;
  roleNames: readonly string[];
  /** Where the member's edit page is. */
  editTo: string;
  /** Why Remove is disabled (spec 1 §6), or null. */
  removeDenial: string | null;
  /** Managed by the organization's provisioning (SCIM): marked, and locked (spec 1 §6). */
  provisioned: boolean;
}

export interface MembersTableProps extends DataTableListProps<MemberRow> {
  onRemove: (member: MemberRow) => Promise<unknown>;
}

/** spec 1 §5: names and emails as substrings, plus the keywords verified, !verified, mfa and !mfa. */
const searchMatch = (row: MemberRow, needle: string) => matchesMemberSearch(row, needle);
const searchText = (row: MemberRow) => [row.name, row.email];

/** spec 1 §2 Members list: name, email, roles, verified and 2FA, with each member's edit link. */
export function MembersTable({ onRemove, ...list }: MembersTableProps) {
  const columns: DataTableColumn<MemberRow>[] = [
    {
      id: 'name',
      header: 'Name',
      cell: (row) => (
        <>
          <Link className="cell-strong" to={row.editTo}>
            {row.name || row.email}
          </Link>
          {row.provisioned ? (
            <span className="badge" title={scimMessages.userLocked}>
              SCIM
            </span>
          ) : null}
        </>
      ),
      sortValue: (row) => row.name.toLowerCase(),
    },
    valueColumn('email', 'Email', (row) => row.email),
    { id: 'roles', header: 'Roles', cell: (row) => row.roleNames.join(', ') },
    {
      id: 'verified',
      header: 'Verified',
      cell: (row) => (row.verified ? 'Yes' : 'No'),
      sortValue: (row) => (row.verified ? 1 : 0),
    },
    {
      id: '2fa',
      header: '2FA',
      cell: (row) => (row.otpEnabled ? 'Enabled' : 'Disabled'),
      sortValue: (row) => (row.otpEnabled ? 1 : 0),
    },
    {
      id: 'actions',
      header: 'Actions',
      cell: (row) => (
        <span className="members-row-actions">
          <ConfirmButton
            label={`Remove ${row.name}`}
            confirmLabel={`Confirm remove ${row.name}`}
            denial={row.removeDenial}
            onConfirm={() => onRemove(row)}
          >
            Remove
          </ConfirmButton>
        </span>
      ),
      align: 'right',
    },
  ];
  return (
    <DataTable<MemberRow>
      label="Members"
      {...list}
      columns={columns}
      searchText={searchText}
      searchMatch={searchMatch}
      searchPlaceholder="Search name, email, verified, mfa"
    />
  );
}
