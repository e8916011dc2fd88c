import { useState, type FormEvent, type ReactNode } from 'react';
import type { UseQueryExecute, UseQueryState } from 'urql';
import { QueryResult } from '../ui/query-result';
import { Pager, text, useFilterParam, usePageParam } from './kit';

/** One column: its header, how a row shows in it, and, where the API sorts by it cheaply, its two sort values. */
export interface Column<Row> {
  header: string;
  cell: (row: Row) => ReactNode;
  /** The list's `sort` values for this column, ascending and descending (the API's enum values). */
  sort?: { asc: string; desc: string };
}

/** A server page of a list, as every console list answers it. */
export interface ListPage<Row> {
  page: number;
  pageSize: number;
  total: number;
  items: readonly Row[];
}

/**
 * What the table's bulk actions get: the selected rows of the page shown, and `done`, which clears
 * the selection and shows what became of it (the table keeps the sentence: the rows may change).
 */
export interface Selection<Row> {
  rows: Row[];
  done: (outcome: string) => void;
}

/**
 * A bulk action's run: `act` on each selected row in turn (each the single item's mutation, with its
 * permission and its rules), then the sentence the table shows: how many `moved`, and which rows
 * were refused, by `name`.
 */
export async function eachSelected<Row>(rows: readonly Row[], act: (row: Row) => Promise<boolean>, name: (row: Row) => string, moved: string): Promise<string> {
  const refused: string[] = [];
  for (const row of rows) if (!(await act(row))) refused.push(name(row));
  return `${rows.length - refused.length} ${moved}.${refused.length ? ` Refused: ${refused.join(', ')}.` : ''}`;
}

/** `eachSelected` for a toolbar of buttons: `run` acts on the selection and hands the sentence to the table; `busy` while it runs. */
export function useEachSelected<Row>({ rows, done }: Selection<Row>, name: (row: Row) => string) {
  const [busy, setBusy] = useState(false);
  const run = async (act: (row: Row) => Promise<boolean>, moved: string) => {
    setBusy(true);
    const outcome = await eachSelected(rows, act, name, moved);
    setBusy(false);
    done(outcome);
  };
  return { busy, run };
}

/** The sort a table's list is read in, from `?sort=` (empty: the API's default), and the setter the column headers use. */
export const useSortParam = () => useFilterParam('sort');

/** The address's sort when it is one of the list's `values` (its API enum), else null: the API's default order. */
export function useSortOf<S extends string>(values: readonly S[]): S | null {
  const [sort] = useSortParam();
  return values.find((v) => v === sort) ?? null;
}

/** The server-side search box of a table: its words go to `?q=` (or `param`), and the list is read again from page 1. */
function SearchBox({ label, param, what }: { label: string; param: string; what: string }) {
  const [value, setValue] = useFilterParam(param);
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setValue(text(new FormData(event.currentTarget).get(param)));
  };
  return (
    <form onSubmit={submit} role="search" aria-label={`Find ${what}`} className="toolbar">
      <label>
        {label}
        <input name={param} type="search" defaultValue={value} key={value} maxLength={200} />
      </label>
      <button type="submit">Search</button>
    </form>
  );
}

/** A column's header: a button when the column sorts, saying which way it is sorted (`aria-sort`). */
function Header<Row>({ column, sort, onSort }: { column: Column<Row>; sort: string; onSort: (value: string) => void }) {
  const by = column.sort;
  if (!by) return <th scope="col">{column.header}</th>;
  const state = sort === by.asc ? 'ascending' : sort === by.desc ? 'descending' : 'none';
  return (
    <th scope="col" aria-sort={state}>
      <button type="button" className="sort" onClick={() => onSort(state === 'ascending' ? by.desc : by.asc)}>
        {column.header}
        <span aria-hidden="true">{state === 'ascending' ? ' ▲' : state === 'descending' ? ' ▼' : ''}</span>
      </button>
    </th>
  );
}

/**
 * The consoles' paged table: the toolbar (a server-side search box, the list's filters, its other
 * actions), one server page of rows, sortable columns, and rows selected for bulk actions. The
 * search, the filters, the sort and the page live in the query string (`useFilterParams`,
 * `usePageParam`), so a reload or a shared link shows the same rows; the caller reads its query
 * from them. The selection is of the page shown, and is cleared when another page is read.
 */
export function DataTable<Data, Row>({
  label, testId, result, list, columns, rowKey, rowLabel, rowProps, search, filters, actions, bulk, reread, empty = 'Nothing matches.', what, pageParam = 'page',
}: {
  /** The table's accessible name. */
  label: string;
  testId?: string;
  result: UseQueryState<Data>;
  list: (data: Data) => ListPage<Row>;
  columns: readonly Column<Row>[];
  rowKey: (row: Row) => string | number;
  /** What a row's selection box says it selects (a product's name, "Order #12"). */
  rowLabel?: (row: Row) => string;
  rowProps?: (row: Row) => Record<string, string | number | undefined>;
  search?: { label: string; param?: string };
  filters?: ReactNode;
  actions?: ReactNode;
  /** The bulk actions on the selected rows; without it rows are not selectable. */
  bulk?: (selection: Selection<Row>) => ReactNode;
  /**
   * The list's query's `reexecute`: the list is read again from the server (`network-only`) once a
   * bulk action is over. Each row's mutation marks the list stale, but a refetch asked while an identical
   * one is in flight is dropped, so without it the rows could show the list as it was after the first
   * rows moved, not the last (CI saw a hidden review still shown visible).
   */
  reread?: UseQueryExecute;
  empty?: string;
  what?: string;
  /** The page's parameter in the address: a second table on one screen keeps its own (`rpage`). */
  pageParam?: string;
}) {
  const [, setPage] = usePageParam(pageParam);
  const [sort, setSort] = useSortParam();
  const [outcome, setOutcome] = useState<string | null>(null);
  return (
    <>
      {search || filters || actions ? (
        <div className="toolbar">
          {search ? <SearchBox label={search.label} param={search.param ?? 'q'} what={label.toLowerCase()} /> : null}
          {filters}
          {actions}
        </div>
      ) : null}
      <QueryResult result={result} what={what ?? `Loading ${label.toLowerCase()}`}>
        {(data) => {
          const page = list(data);
          return (
            <Rows
              // A new page (or sort, or filter) is a new set of rows: the selection does not carry over.
              // Not a React key: the rows stay mounted, so a half-typed form in a row survives a refetch.
              rowsKey={`${page.page}:${page.items.map(rowKey).join(',')}`}
              label={label}
              testId={testId}
              page={page}
              columns={columns}
              rowKey={rowKey}
              rowLabel={rowLabel ?? ((row) => String(rowKey(row)))}
              rowProps={rowProps}
              sort={sort}
              onSort={setSort}
              bulk={bulk}
              outcome={outcome}
              onOutcome={(sentence) => {
                setOutcome(sentence);
                if (sentence !== null) reread?.({ requestPolicy: 'network-only' });
              }}
              empty={empty}
              onPage={setPage}
            />
          );
        }}
      </QueryResult>
    </>
  );
}

const NONE: ReadonlySet<string | number> = new Set();

function Rows<Row>({
  rowsKey, label, testId, page, columns, rowKey, rowLabel, rowProps, sort, onSort, bulk, outcome, onOutcome, empty, onPage,
}: {
  rowsKey: string;
  label: string;
  testId?: string;
  page: ListPage<Row>;
  columns: readonly Column<Row>[];
  rowKey: (row: Row) => string | number;
  rowLabel: (row: Row) => string;
  rowProps?: (row: Row) => Record<string, string | number | undefined>;
  sort: string;
  onSort: (value: string) => void;
  bulk?: (selection: Selection<Row>) => ReactNode;
  outcome: string | null;
  onOutcome: (outcome: string | null) => void;
  empty: string;
  onPage: (n: number) => void;
}) {
  // The selection is of one set of rows (`rowsKey`): read for another set, it is empty.
  const [selection, setSelection] = useState<{ of: string; keys: ReadonlySet<string | number> }>(() => ({ of: rowsKey, keys: new Set() }));
  const selected = selection.of === rowsKey ? selection.keys : NONE;
  const setSelected = (next: (before: ReadonlySet<string | number>) => ReadonlySet<string | number>) => setSelection((s) => ({ of: rowsKey, keys: next(s.of === rowsKey ? s.keys : NONE) }));
  const keys = page.items.map(rowKey);
  const allSelected = keys.length > 0 && keys.every((k) => selected.has(k));
  const toggle = (key: string | number, on: boolean) => {
    onOutcome(null);
    setSelected((before) => {
      const next = new Set(before);
      if (on) next.add(key);
      else next.delete(key);
      return next;
    });
  };
  const chosen = page.items.filter((row) => selected.has(rowKey(row)));
  return (
    <>
      {bulk ? (
        <div className="toolbar bulk-actions" role="group" aria-label={`Selected ${label.toLowerCase()}`}>
          <span>{chosen.length} selected</span>
          {chosen.length > 0
            ? bulk({
                rows: chosen,
                done: (sentence) => {
                  setSelected(() => new Set());
                  onOutcome(sentence);
                },
              })
            : null}
          {outcome ? (
            <span role="status" data-testid="bulk-outcome">
              {outcome}
            </span>
          ) : null}
        </div>
      ) : null}
      <table className="grid" data-testid={testId} aria-label={label}>
        <thead>
          <tr>
            {bulk ? (
              <th scope="col">
                <input
                  type="checkbox"
                  aria-label="Select every row on this page"
                  checked={allSelected}
                  onChange={(e) => {
                    onOutcome(null);
                    setSelected(() => (e.target.checked ? new Set(keys) : new Set()));
                  }}
                />
              </th>
            ) : null}
            {columns.map((column) => (
              <Header key={column.header} column={column} sort={sort} onSort={onSort} />
            ))}
          </tr>
        </thead>
        <tbody>
          {page.items.map((row) => {
            const key = rowKey(row);
            return (
              <tr key={key} {...rowProps?.(row)}>
                {bulk ? (
                  <td>
                    <input type="checkbox" aria-label={`Select ${rowLabel(row)}`} checked={selected.has(key)} onChange={(e) => toggle(key, e.target.checked)} />
                  </td>
                ) : null}
                {columns.map((column) => (
                  <td key={column.header}>{column.cell(row)}</td>
                ))}
              </tr>
            );
          })}
        </tbody>
      </table>
      {page.items.length === 0 ? <p className="empty">{empty}</p> : null}
      <Pager page={page.page} pageSize={page.pageSize} total={page.total} onPage={onPage} />
    </>
  );
}
