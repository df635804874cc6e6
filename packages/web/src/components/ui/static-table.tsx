import type { ReactNode } from 'react';
import { TableWrap } from './table-wrap.tsx';

/**
 * A column header: its name, or the name with a class, shown to assistive technology only, or drawn as
 * `content` (a richer header: a tooltip, a second line; `label` stays its key).
 */
export type StaticColumn =
  | string
  | { label: string; className?: string; hidden?: boolean; content?: ReactNode };

export interface StaticTableProps {
  /** The table's accessible name (visually hidden). */
  caption?: ReactNode;
  /** Classes added to `table` (the table's own styling). */
  className?: string;
  columns: readonly StaticColumn[];
  /** The body rows. */
  children: ReactNode;
}

/**
 * A table laid out by hand (no search, sort or paging, unlike DataTable), in the same frame: the
 * scrolling wrapper, a hidden caption and a header row of column scopes.
 */
export function StaticTable({ caption, className, columns, children }: StaticTableProps) {
  return (
    <TableWrap label={typeof caption === 'string' ? caption : undefined}>
      <table className={className ? `table ${className}` : 'table'}>
        {caption ? <caption className="visually-hidden">{caption}</caption> : null}
        <thead>
          <tr>
            {columns.map((column) => {
              const {
                label,
                className: cellClass,
                hidden,
                content,
              } = typeof column === 'string' ? { label: column } : column;
              return (
                <th key={label} scope="col" className={cellClass}>
                  {hidden ? <span className="visually-hidden">{label}</span> : (content ?? label)}
                </th>
              );
            })}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </TableWrap>
  );
}
