import { formatUsd } from '@berth/core';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { formatDateTime } from '../../lib/format-date.ts';
import type { DataTableColumn } from './data-table.tsx';
import { TotalRow } from './total-row.tsx';

// The column kinds the list tables share, so a kind reads and sorts the same in every list.

type Extra<T> = Partial<Omit<DataTableColumn<T>, 'id' | 'header'>>;

/** A field shown as it is and sorted by the same value. */
export function valueColumn<T>(
  id: string,
  header: string,
  value: (row: T) => string | number,
  extra: Extra<T> = {},
): DataTableColumn<T> {
  return { id, header, cell: value, sortValue: value, ...extra };
}

/** A count or amount: right-aligned. */
export function numberColumn<T>(id: string, header: string, value: (row: T) => number): DataTableColumn<T> {
  return valueColumn(id, header, value, { align: 'right' });
}

/** The row's id in code type, sorted numerically (ids are numeric strings; others sort as 0). */
export function idColumn<T extends { id: string }>(): DataTableColumn<T> {
  return {
    id: 'id',
    header: 'ID',
    cell: (row) => <code>{row.id}</code>,
    sortValue: (row) => Number(row.id) || 0,
  };
}

/** The row's name, linking to its page: the first column of a list. */
export function linkColumn<T extends { id: string }>(
  id: string,
  header: string,
  value: (row: T) => string,
  href: (id: string) => string,
  after?: (row: T) => ReactNode,
): DataTableColumn<T> {
  return {
    id,
    header,
    sortValue: value,
    cell: (row) => (
      <>
        <Link className="cell-strong" to={href(row.id)}>
          {value(row)}
        </Link>
        {after?.(row)}
      </>
    ),
  };
}

/** A timestamp in the console's format, sorted by its ISO text. */
export function dateTimeColumn<T>(id: string, header: string, value: (row: T) => string): DataTableColumn<T> {
  return { id, header, cell: (row) => formatDateTime(value(row)), sortValue: value };
}

/** spec 2 §2 Est. Monthly Cost by row id (`costs` undefined while loading: an ellipsis). */
export function costColumn<T extends { id: string }>(
  costs: ReadonlyMap<string, number> | undefined,
): DataTableColumn<T> {
  return {
    id: 'cost',
    header: 'Est. Monthly Cost',
    align: 'right',
    sortValue: (row) => costs?.get(row.id) ?? 0,
    cell: (row) => (costs ? formatUsd(costs.get(row.id) ?? 0) : '…'),
  };
}

/** spec 2 §2 the total estimated monthly cost row under a list of these ids. */
export function CostTotalRow({
  rows,
  costs,
}: {
  rows: readonly { id: string }[];
  costs: ReadonlyMap<string, number> | undefined;
}) {
  const total = rows.reduce((sum, row) => sum + (costs?.get(row.id) ?? 0), 0);
  return <TotalRow label="Total Est. Monthly Cost" value={costs ? formatUsd(total) : '…'} />;
}
