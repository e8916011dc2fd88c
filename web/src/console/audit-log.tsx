import { type FormEvent } from 'react';
import { useQuery } from 'urql';
import { graphql } from './gql';
import type { ConsoleAuditEntriesQuery } from './gql/graphql';
import { Field, label, text, toInstant, toLocalInput, useFilterParams, usePageParam, when } from './kit';
import { DataTable, type Column } from './data-table';

const PAGE_SIZE = 20;

const AuditEntries = graphql(`
  query ConsoleAuditEntries(
    $shopId: Int
    $actorId: Int
    $operation: String
    $targetType: String
    $targetId: String
    $from: DateTimeISO
    $to: DateTimeISO
    $page: Int
    $pageSize: Int
  ) {
    auditEntries(shopId: $shopId, actorId: $actorId, operation: $operation, targetType: $targetType, targetId: $targetId, from: $from, to: $to, page: $page, pageSize: $pageSize) {
      page
      pageSize
      total
      items {
        id
        occurredAt
        actorId
        actorEmail
        actorRole
        shopId
        shopName
        operation
        targetType
        targetId
        targetName
        action
        requestId
        changes {
          field
          before
          after
        }
      }
    }
  }
`);

type Entry = ConsoleAuditEntriesQuery['auditEntries']['items'][number];

/**
 * The filters, kept in the address so a filtered view can be shared and reloaded. The form's own
 * fields are the typed ones; a shop and an actor are chosen by their name in a row, never typed as ids.
 */
const TYPED = ['operation', 'targetType', 'targetId', 'from', 'to'] as const;
/** Each chosen id with the name the chip shows (kept beside it, so a reload names it too). */
const CHOSEN = ['shop', 'shopName', 'actor', 'actorName'] as const;
const FILTERS = [...TYPED, ...CHOSEN] as const;
type Filters = Record<(typeof FILTERS)[number], string>;
type Narrow = (filters: Partial<Filters>) => void;

const idOrNull = (value: string): number | null => (/^\d+$/.test(value) ? Number(value) : null);

/** A changed value as JSON text, shown as it reads: `"draft"` as draft, absent as an empty cell. */
const shown = (json: string | null | undefined): string => {
  if (json == null) return '—';
  const value: unknown = JSON.parse(json);
  return typeof value === 'string' ? value : json;
};

function Changes({ entry }: { entry: Entry }) {
  if (entry.changes.length === 0) return <>—</>;
  return (
    <dl className="audit-changes">
      {entry.changes.map((c) => (
        <div key={c.field}>
          <dt>{c.field}</dt>
          <dd>
            {entry.action === 'CREATE' ? shown(c.after) : entry.action === 'DELETE' ? `${shown(c.before)} (deleted)` : `${shown(c.before)} → ${shown(c.after)}`}
          </dd>
        </div>
      ))}
    </dl>
  );
}

/**
 * The columns. A name in a row narrows the log (`narrow`, the page starting over): an actor or a shop
 * to their writes, a target to that row's history (its type and id, which the form then shows).
 */
const auditColumns = (platform: boolean, narrow: Narrow): readonly Column<Entry>[] => [
  { header: 'When', cell: (e) => when(e.occurredAt) },
  {
    header: 'Who',
    cell: (e) => (
      <>
        {e.actorEmail === null ? (
          'A deleted account'
        ) : (
          <button type="button" className="link-button" title={`Only ${e.actorEmail}'s writes`} onClick={() => narrow({ actor: String(e.actorId), actorName: e.actorEmail! })}>
            {e.actorEmail}
          </button>
        )}{' '}
        ({label(e.actorRole.toUpperCase())})
      </>
    ),
  },
  ...(platform
    ? [
        {
          header: 'Shop',
          cell: (e: Entry) =>
            e.shopId === null ? (
              'Platform'
            ) : (
              <button type="button" className="link-button" title={`Only ${e.shopName}'s entries`} onClick={() => narrow({ shop: String(e.shopId), shopName: e.shopName ?? '' })}>
                {e.shopName}
              </button>
            ),
        },
      ]
    : []),
  {
    header: 'Operation',
    cell: (e) => (
      <>
        {e.operation} <small>({label(e.action)})</small>
      </>
    ),
  },
  {
    header: 'Target',
    cell: (e) => (
      <>
        <button type="button" className="link-button" title="Only this row's history" onClick={() => narrow({ targetType: e.targetType, targetId: e.targetId })}>
          {e.targetName ?? `${e.targetType} #${e.targetId}`}
        </button>
        {e.targetName !== null ? (
          <small>
            {' '}
            ({e.targetType} #{e.targetId})
          </small>
        ) : null}
      </>
    ),
  },
  { header: 'Changes', cell: (e) => <Changes entry={e} /> },
  { header: 'Request', cell: (e) => <code>{e.requestId}</code> },
];

/** The typed filters (operation, target, time range) as one form, and a chip for each shop or actor chosen in a row. */
function AuditFilters({ filters, narrow }: { filters: Filters; narrow: Narrow }) {
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const typed = (name: (typeof TYPED)[number]) => text(form.get(name));
    narrow({
      operation: typed('operation'),
      targetType: typed('targetType'),
      targetId: typed('targetId'),
      from: typed('from') && toInstant(typed('from')),
      to: typed('to') && toInstant(typed('to')),
    });
  };
  return (
    <>
      {/* Keyed by the typed filters: one set by a click in a row (a target) shows in the form's fields too. */}
      <form key={TYPED.map((name) => filters[name]).join('\n')} onSubmit={submit} role="search" aria-label="Filter the audit log" className="audit-filters">
        <Field label="Operation" name="audit-operation">
          {(props) => <input {...props} name="operation" placeholder="upsertProduct" defaultValue={filters.operation} />}
        </Field>
        <Field label="Target type" name="audit-target-type">
          {(props) => <input {...props} name="targetType" placeholder="Product" defaultValue={filters.targetType} />}
        </Field>
        <Field label="Target id" name="audit-target-id">
          {(props) => <input {...props} name="targetId" defaultValue={filters.targetId} />}
        </Field>
        <Field label="From" name="audit-from">
          {(props) => <input {...props} name="from" type="datetime-local" defaultValue={filters.from ? toLocalInput(filters.from) : ''} />}
        </Field>
        <Field label="Until" name="audit-to">
          {(props) => <input {...props} name="to" type="datetime-local" defaultValue={filters.to ? toLocalInput(filters.to) : ''} />}
        </Field>
        <button type="submit">Filter</button>
      </form>
      {idOrNull(filters.shop) !== null ? (
        <span className="filter-chip">
          Shop: {filters.shopName || 'the one chosen'}{' '}
          <button type="button" onClick={() => narrow({ shop: '', shopName: '' })}>
            Every shop
          </button>
        </span>
      ) : null}
      {idOrNull(filters.actor) !== null ? (
        <span className="filter-chip">
          By: {filters.actorName || 'the one chosen'}{' '}
          <button type="button" onClick={() => narrow({ actor: '', actorName: '' })}>
            Everyone
          </button>
        </span>
      ) : null}
    </>
  );
}

/**
 * The audit log: every write of shop members and platform staff, newest first. Platform admins see
 * all of it and may filter by shop; a shop's operator sees their own shop's entries (the API decides:
 * the same query, scoped by the caller).
 */
export function AuditLog({ platform }: { platform: boolean }) {
  const [page] = usePageParam();
  const [filters, narrow] = useFilterParams(FILTERS);
  const variables = {
    shopId: platform ? idOrNull(filters.shop) : null,
    actorId: idOrNull(filters.actor),
    operation: filters.operation || null,
    targetType: filters.targetType || null,
    targetId: filters.targetType ? filters.targetId || null : null,
    from: filters.from || null,
    to: filters.to || null,
    page,
    pageSize: PAGE_SIZE,
  };
  const [result] = useQuery({ query: AuditEntries, variables, requestPolicy: 'cache-and-network' });
  return (
    <>
      <h1>Audit log</h1>
      <p>{platform ? 'Every write of shop members and platform staff, newest first.' : "Your shop's writes, and the platform's writes on your shop, newest first."}</p>
      <DataTable
        label="Audit log entries"
        testId="audit-log"
        result={result}
        list={(data) => data.auditEntries}
        columns={auditColumns(platform, narrow)}
        rowKey={(e) => e.id}
        rowProps={() => ({ 'data-testid': 'audit-entry' })}
        filters={<AuditFilters filters={filters} narrow={narrow} />}
        empty="No entries match."
        what="Loading the audit log"
      />
    </>
  );
}
