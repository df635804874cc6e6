import { DEFAULT_TABLE_PAGE_SIZE, TABLE_PAGE_SIZE_OPTIONS } from '@berth/core';
import {
  type ColumnDef,
  getCoreRowModel,
  type Row,
  type SortingState,
  useReactTable,
} from '@tanstack/react-table';
import { useVirtualizer } from '@tanstack/react-virtual';
import { type ReactNode, useCallback, useId, useMemo, useRef } from 'react';
import { useSearchParams } from 'react-router';
import { useDebouncedDraft } from '../../lib/use-debounced-draft.ts';
import { Button } from './button.tsx';
import { TableWrap } from './table-wrap.tsx';

/** spec 3 §2: the texts of a list with nothing to show and of a list that failed to load. */
export const NO_RESOURCES_FOUND = 'No resources found';
export const loadErrorText = (message: string) => `Error: ${message}`;

/** Above this many rows on a page, only the rows in view are rendered. */
const VIRTUALIZE_ABOVE = 100;
const ROW_HEIGHT_PX = 45;

export interface DataTableColumn<T> {
  id: string;
  header: string;
  cell: (row: T) => ReactNode;
  /** Makes the column sortable (spec 3 §2 sort keys are the column ids). */
  sortValue?: (row: T) => string | number;
  align?: 'left' | 'right';
  /** The header is for assistive technology only (a column of row buttons). */
  headerHidden?: boolean;
}

/** The server-paged variant's page (1-based), its page count and how to move to another page. */
export interface ServerPaging {
  page: number;
  pageCount: number;
  /** The server counted up to a cap: there are at least `pageCount` pages ("of 250+"). */
  pageCountEstimated?: boolean;
  onPageChange: (page: number) => void;
}

/** What a list component hands its DataTable unchanged: the rows and the state of the query behind them. */
export interface DataTableListProps<T> {
  rows: readonly T[];
  isLoading?: boolean;
  error?: Error | null;
  toolbar?: ReactNode;
}

interface DataTableBaseProps<T> extends DataTableListProps<T> {
  /** The table's accessible name. */
  label: string;
  columns: readonly DataTableColumn<T>[];
  /** The row's key; by default its `id` (rows without one must say). */
  getRowId?: (row: T) => string;
  /** The fields the search box matches, case-insensitively, as substrings (unused when server-paged). */
  searchText?: (row: T) => readonly (string | null | undefined)[];
  /**
   * Replaces the substring match when a list has search keywords of its own (e.g. the endpoints'
   * `shared:yes`); it receives the trimmed, lower-cased search text.
   */
  searchMatch?: (row: T, needle: string) => boolean;
  /** Shown under the rows, e.g. a total cost row. */
  footer?: ReactNode;
  searchPlaceholder?: string;
  /**
   * The order of the rows while no column sort is chosen (e.g. newest first); a column sort wins, and
   * rows it ties keep this order.
   */
  defaultSort?: (a: T, b: T) => number;
  /**
   * The one variant: a list the server pages (activity, with its `since` window and filters). `rows` is
   * the server's page as answered, so the search box, column sorts and Rows select are off (they would
   * act on one page and mislead); Previous and Next move the server's page, shown once there are two.
   */
  serverPaging?: ServerPaging;
}

export type DataTableProps<T> = DataTableBaseProps<T> &
  ([T] extends [{ id: string }] ? unknown : { getRowId: (row: T) => string });

const idOfRow = (row: unknown) => (row as { id: string }).id;

function positiveInt(value: string | null, fallback: number): number {
  const parsed = Number.parseInt(value ?? '', 10);
  return Number.isFinite(parsed) && parsed > 0 ? parsed : fallback;
}

/** spec 3 §2: a case-insensitive substring match over a row's fields (`needle` is lower-cased). */
export function matchesSearchText(fields: readonly (string | null | undefined)[], needle: string): boolean {
  return fields.some((field) => field?.toString().toLowerCase().includes(needle));
}

/** `sort=handle` ascending, `sort=-handle` descending. */
function sortingFrom(value: string | null): SortingState {
  if (!value) return [];
  const desc = value.startsWith('-');
  return [{ id: desc ? value.slice(1) : value, desc }];
}

/**
 * The one client-side list table (spec 3 §2): search, sort, page and rows live in the query string,
 * search is debounced 300 ms, pages hold 25 rows unless `rows` says otherwise, and long pages are
 * virtualized so 5000 rows stay smooth.
 */
export function DataTable<T>({
  label,
  rows,
  columns,
  getRowId = idOfRow,
  searchText,
  searchMatch,
  isLoading = false,
  error = null,
  toolbar,
  footer,
  searchPlaceholder = 'Search',
  defaultSort,
  serverPaging,
}: DataTableProps<T>) {
  const searchId = useId();
  const rowsId = useId();
  const [params, setParams] = useSearchParams();
  const search = params.get('search') ?? '';
  const pageSize = positiveInt(params.get('rows'), DEFAULT_TABLE_PAGE_SIZE);
  const sorting = serverPaging ? [] : sortingFrom(params.get('sort'));

  const update = useCallback(
    (changes: Record<string, string | null>, replace = false) =>
      setParams(
        (current) => {
          const next = new URLSearchParams(current);
          for (const [key, value] of Object.entries(changes)) {
            if (value === null) next.delete(key);
            else next.set(key, value);
          }
          return next;
        },
        { replace },
      ),
    [setParams],
  );

  // The search box types freely; the query string (and the filtering) follows 300 ms later.
  const [draft, setDraft] = useDebouncedDraft(
    search,
    useCallback((text: string) => update({ search: text || null, page: null }, true), [update]),
  );

  const columnDefs = useMemo<ColumnDef<T>[]>(
    () =>
      columns.map((column) => ({
        id: column.id,
        header: column.header,
        enableSorting: !!column.sortValue,
        accessorFn: column.sortValue ?? (() => 0),
        sortingFn: 'basic',
      })),
    [columns],
  );

  const matching = useMemo(() => {
    if (serverPaging) return [...rows];
    const needle = search.trim().toLowerCase();
    const found = needle
      ? rows.filter((row) =>
          searchMatch ? searchMatch(row, needle) : matchesSearchText(searchText?.(row) ?? [], needle),
        )
      : [...rows];
    return defaultSort ? found.sort(defaultSort) : found;
  }, [rows, search, searchText, searchMatch, defaultSort, serverPaging]);

  const pageCount = serverPaging
    ? Math.max(1, serverPaging.pageCount)
    : Math.max(1, Math.ceil(matching.length / pageSize));
  const pageIndex = Math.min(serverPaging?.page ?? positiveInt(params.get('page'), 1), pageCount) - 1;
  const byId = new Map(columns.map((column) => [column.id, column]));

  // Sorted and cut to the page here, so the table makes row objects for the page's rows only: for 25
  // rows of 5000, not 5000 (the sort is the table's own `basic` one; ties keep the rows' order).
  const sortValue = sorting[0] ? byId.get(sorting[0].id)?.sortValue : undefined;
  const descending = sorting[0]?.desc === true;
  const sorted = useMemo(() => {
    if (!sortValue) return matching;
    const direction = descending ? -1 : 1;
    return [...matching].sort((a, b) => {
      const left = sortValue(a);
      const right = sortValue(b);
      return (left === right ? 0 : left > right ? 1 : -1) * direction;
    });
  }, [matching, sortValue, descending]);
  const pageData = useMemo(
    () => (serverPaging ? sorted : sorted.slice(pageIndex * pageSize, (pageIndex + 1) * pageSize)),
    [sorted, serverPaging, pageIndex, pageSize],
  );

  const table = useReactTable({
    data: pageData,
    columns: columnDefs,
    getRowId: (row) => getRowId(row),
    state: { sorting },
    manualSorting: true,
    manualPagination: true,
    // Page and sort live in the query string; the table must not reset its own copy on new data
    // (it would re-render forever, since the rows are derived on every render).
    autoResetAll: false,
    getCoreRowModel: getCoreRowModel(),
  });
  const pageRows = table.getRowModel().rows;

  const toggleSort = (id: string) => {
    const current = sorting[0];
    const next = current?.id !== id ? id : current.desc ? null : `-${id}`;
    update({ sort: next, page: null });
  };

  const colSpan = columns.length;
  let body: ReactNode;
  if (error) {
    body = (
      <tr>
        <td colSpan={colSpan} className="table-empty" role="alert">
          {loadErrorText(error.message)}
        </td>
      </tr>
    );
  } else if (isLoading) {
    body = Array.from({ length: 3 }, (_, index) => (
      // biome-ignore lint/suspicious/noArrayIndexKey: placeholder rows have no identity
      <tr key={index}>
        <td colSpan={colSpan}>
          <span className="skeleton" />
        </td>
      </tr>
    ));
  } else if (pageRows.length === 0) {
    body = (
      <tr>
        <td colSpan={colSpan} className="table-empty">
          {NO_RESOURCES_FOUND}
        </td>
      </tr>
    );
  }

  const renderRow = (row: Row<T>, measure?: RowMeasure) => (
    <tr key={row.id} ref={measure?.ref} data-index={measure?.index}>
      {columns.map((column) => (
        <td
          key={column.id}
          className={column.align === 'right' ? 'numeric' : undefined}
          // Issue 41: on a phone each row is a card and each value carries its column's name.
          data-label={column.headerHidden ? undefined : column.header}
        >
          {byId.get(column.id)?.cell(row.original)}
        </td>
      ))}
    </tr>
  );

  return (
    <div className="card data-table">
      {serverPaging ? (
        toolbar ? (
          <div className="table-toolbar">{toolbar}</div>
        ) : null
      ) : (
        <div className="table-toolbar">
          <label className="visually-hidden" htmlFor={searchId}>
            Search {label.toLowerCase()}
          </label>
          <input
            id={searchId}
            className="input table-search"
            type="search"
            placeholder={searchPlaceholder}
            value={draft}
            onChange={(event) => setDraft(event.target.value)}
          />
          <span className="table-count">
            {matching.length} {matching.length === 1 ? 'result' : 'results'}
          </span>
          {toolbar}
        </div>
      )}
      {body ? (
        <TableWrap label={label}>
          <table className="table table-cards">
            <caption className="visually-hidden">{label}</caption>
            <Head columns={columns} sorting={sorting} onSort={serverPaging ? undefined : toggleSort} />
            <tbody>{body}</tbody>
          </table>
        </TableWrap>
      ) : pageRows.length > VIRTUALIZE_ABOVE ? (
        <VirtualBody label={label} rows={pageRows} colSpan={colSpan} renderRow={renderRow}>
          <Head columns={columns} sorting={sorting} onSort={serverPaging ? undefined : toggleSort} />
        </VirtualBody>
      ) : (
        <TableWrap label={label}>
          <table className="table table-cards">
            <caption className="visually-hidden">{label}</caption>
            <Head columns={columns} sorting={sorting} onSort={serverPaging ? undefined : toggleSort} />
            <tbody>{pageRows.map((row) => renderRow(row))}</tbody>
          </table>
        </TableWrap>
      )}
      {footer}
      {serverPaging ? (
        pageCount > 1 ? (
          <nav className="table-pager" aria-label="Pagination">
            <PageSteps
              pageIndex={pageIndex}
              pageCount={pageCount}
              estimated={serverPaging.pageCountEstimated}
              goTo={serverPaging.onPageChange}
            />
          </nav>
        ) : null
      ) : (
        <ClientPager
          rowsId={rowsId}
          pageSize={pageSize}
          pageIndex={pageIndex}
          pageCount={pageCount}
          update={update}
        />
      )}
    </div>
  );
}

/** The client-side pager: the Rows select (query string `rows`) and Previous/Next over `page`. */
function ClientPager({
  rowsId,
  pageSize,
  pageIndex,
  pageCount,
  update,
}: {
  rowsId: string;
  pageSize: number;
  pageIndex: number;
  pageCount: number;
  update: (changes: Record<string, string | null>) => void;
}) {
  return (
    <div className="table-pager">
      <label htmlFor={rowsId}>Rows</label>
      <select
        id={rowsId}
        className="select table-rows"
        value={pageSize}
        onChange={(event) => update({ rows: event.target.value, page: null })}
      >
        {[...new Set([...TABLE_PAGE_SIZE_OPTIONS, pageSize])]
          .sort((a, b) => a - b)
          .map((option) => (
            <option key={option} value={option}>
              {option}
            </option>
          ))}
      </select>
      <PageSteps
        pageIndex={pageIndex}
        pageCount={pageCount}
        goTo={(page) => update({ page: String(page) })}
      />
    </div>
  );
}

/** "Page N of M" with Previous and Next; `goTo` takes the 1-based page, as the URL and the server do. */
function PageSteps({
  pageIndex,
  pageCount,
  estimated = false,
  goTo,
}: {
  pageIndex: number;
  pageCount: number;
  estimated?: boolean;
  goTo: (page: number) => void;
}) {
  return (
    <>
      <span>
        Page {pageIndex + 1} of {pageCount}
        {estimated ? '+' : ''}
      </span>
      <Button size="sm" variant="secondary" disabled={pageIndex === 0} onClick={() => goTo(pageIndex)}>
        Previous
      </Button>
      <Button
        size="sm"
        variant="secondary"
        disabled={pageIndex + 1 >= pageCount}
        onClick={() => goTo(pageIndex + 2)}
      >
        Next
      </Button>
    </>
  );
}

function Head<T>({
  columns,
  sorting,
  onSort,
}: {
  columns: readonly DataTableColumn<T>[];
  sorting: SortingState;
  /** Absent when the rows may not be sorted here (the server-paged variant). */
  onSort?: (id: string) => void;
}) {
  return (
    <thead>
      <tr>
        {columns.map((column) => {
          const sorted =
            sorting[0]?.id === column.id ? (sorting[0].desc ? 'descending' : 'ascending') : 'none';
          const sortable = column.sortValue !== undefined && onSort !== undefined;
          return (
            <th
              key={column.id}
              scope="col"
              className={column.align === 'right' ? 'numeric' : undefined}
              aria-sort={sortable ? sorted : undefined}
            >
              {sortable ? (
                <button type="button" className="table-sort" onClick={() => onSort?.(column.id)}>
                  {column.header}
                  <span aria-hidden="true" className="table-sort-mark">
                    {sorted === 'ascending' ? '▲' : sorted === 'descending' ? '▼' : ''}
                  </span>
                </button>
              ) : column.headerHidden ? (
                <span className="visually-hidden">{column.header}</span>
              ) : (
                column.header
              )}
            </th>
          );
        })}
      </tr>
    </thead>
  );
}

/** How the virtualized body learns a rendered row's real height (a card on a phone is taller). */
interface RowMeasure {
  index: number;
  ref: (element: HTMLTableRowElement | null) => void;
}

/** Renders only the rows in view (plus a few), padding the rest, inside a scrolling box. */
function VirtualBody<T>({
  label,
  rows,
  colSpan,
  renderRow,
  children,
}: {
  label: string;
  rows: Row<T>[];
  colSpan: number;
  renderRow: (row: Row<T>, measure: RowMeasure) => ReactNode;
  children: ReactNode;
}) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT_PX,
    overscan: 12,
  });
  const items = virtualizer.getVirtualItems();
  const before = items[0]?.start ?? 0;
  const after = virtualizer.getTotalSize() - (items.at(-1)?.end ?? 0);
  return (
    <TableWrap label={label} scrollRef={scrollRef} className="table-wrap table-scroll">
      <table className="table table-cards" aria-rowcount={rows.length + 1}>
        <caption className="visually-hidden">{label}</caption>
        {children}
        <tbody>
          {before > 0 ? (
            <tr className="table-spacer">
              <td colSpan={colSpan} style={{ height: before, padding: 0, border: 0 }} />
            </tr>
          ) : null}
          {items.map((item) => {
            const row = rows[item.index];
            return row ? renderRow(row, { index: item.index, ref: virtualizer.measureElement }) : null;
          })}
          {after > 0 ? (
            <tr className="table-spacer">
              <td colSpan={colSpan} style={{ height: after, padding: 0, border: 0 }} />
            </tr>
          ) : null}
        </tbody>
      </table>
    </TableWrap>
  );
}
