import { type FormEvent } from 'react';
import { useSearchParams } from 'react-router';
import { useQuery } from 'urql';
import { graphql } from './gql';
import type { ConsoleAuditEntriesQuery } from './gql/graphql';
import { QueryResult } from '../ui/query-result';
import { Field, Pager, label, text, toInstant, toLocalInput, usePageParam, when } from './kit';

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
type Filter = (typeof TYPED)[number] | (typeof CHOSEN)[number];

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
 * The audit log: every write of shop members and platform staff, newest first. Platform admins see
 * all of it and may filter by shop; a shop's operator sees their own shop's entries (the API decides:
 * the same query, scoped by the caller).
 */
export function AuditLog({ platform }: { platform: boolean }) {
  const [page, setPage] = usePageParam();
  const [params, setParams] = useSearchParams();
  const value = (name: Filter) => params.get(name) ?? '';
  const variables = {
    shopId: platform ? idOrNull(value('shop')) : null,
    actorId: idOrNull(value('actor')),
    operation: value('operation') || null,
    targetType: value('targetType') || null,
    targetId: value('targetType') ? value('targetId') || null : null,
    from: value('from') || null,
    to: value('to') || null,
    page,
    pageSize: PAGE_SIZE,
  };
  const [result] = useQuery({ query: AuditEntries, variables, requestPolicy: 'cache-and-network' });

  const filter = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const next = new URLSearchParams();
    for (const name of CHOSEN) if (value(name)) next.set(name, value(name));
    for (const name of TYPED) {
      const raw = text(form.get(name));
      if (!raw) continue;
      next.set(name, name === 'from' || name === 'to' ? toInstant(raw) : raw);
    }
    setParams(next);
  };
  /** Narrows the log to one shop or one actor, by a row's name, or widens it again (null); the page starts over. */
  const choose = (name: 'shop' | 'actor', picked: { id: number; name: string } | null) => {
    const next = new URLSearchParams(params);
    next.delete(name);
    next.delete(`${name}Name`);
    if (picked) {
      next.set(name, String(picked.id));
      next.set(`${name}Name`, picked.name);
    }
    next.delete('page');
    setParams(next);
  };

  /** Narrows the log to one row's history (its type and id, which the form shows), by its name in a row. */
  const narrowToTarget = (entry: Entry) => {
    const next = new URLSearchParams(params);
    next.set('targetType', entry.targetType);
    next.set('targetId', entry.targetId);
    next.delete('page');
    setParams(next);
  };

  return (
    <>
      <h1>Audit log</h1>
      <p>{platform ? 'Every write of shop members and platform staff, newest first.' : "Your shop's writes, and the platform's writes on your shop, newest first."}</p>
      {/* Keyed by the address: a filter set by a click in a row (a target) shows in the form's fields too. */}
      <form key={params.toString()} onSubmit={filter} role="search" aria-label="Filter the audit log" className="audit-filters">
        <Field label="Operation" name="audit-operation">
          {(props) => <input {...props} name="operation" placeholder="upsertProduct" defaultValue={value('operation')} />}
        </Field>
        <Field label="Target type" name="audit-target-type">
          {(props) => <input {...props} name="targetType" placeholder="Product" defaultValue={value('targetType')} />}
        </Field>
        <Field label="Target id" name="audit-target-id">
          {(props) => <input {...props} name="targetId" defaultValue={value('targetId')} />}
        </Field>
        <Field label="From" name="audit-from">
          {(props) => <input {...props} name="from" type="datetime-local" defaultValue={value('from') ? toLocalInput(value('from')) : ''} />}
        </Field>
        <Field label="Until" name="audit-to">
          {(props) => <input {...props} name="to" type="datetime-local" defaultValue={value('to') ? toLocalInput(value('to')) : ''} />}
        </Field>
        <button type="submit">Filter</button>
      </form>
      {variables.shopId !== null || variables.actorId !== null ? (
        <p className="toolbar">
          {variables.shopId !== null ? (
            <span className="filter-chip">
              Shop: {value('shopName') || 'the one chosen'}{' '}
              <button type="button" onClick={() => choose('shop', null)}>
                Every shop
              </button>
            </span>
          ) : null}
          {variables.actorId !== null ? (
            <span className="filter-chip">
              By: {value('actorName') || 'the one chosen'}{' '}
              <button type="button" onClick={() => choose('actor', null)}>
                Everyone
              </button>
            </span>
          ) : null}
        </p>
      ) : null}
      <QueryResult result={result} what="Loading the audit log">
        {({ auditEntries }) => (
          <>
            {auditEntries.items.length === 0 ? (
              <p>No entries match.</p>
            ) : (
              <table className="grid">
                <thead>
                  <tr>
                    <th scope="col">When</th>
                    <th scope="col">Who</th>
                    {platform && <th scope="col">Shop</th>}
                    <th scope="col">Operation</th>
                    <th scope="col">Target</th>
                    <th scope="col">Changes</th>
                    <th scope="col">Request</th>
                  </tr>
                </thead>
                <tbody>
                  {auditEntries.items.map((e) => (
                    <tr key={e.id} data-testid="audit-entry">
                      <td>{when(e.occurredAt)}</td>
                      <td>
                        {e.actorEmail === null ? (
                          'A deleted account'
                        ) : (
                          <button type="button" className="link-button" title={`Only ${e.actorEmail}'s writes`} onClick={() => choose('actor', { id: e.actorId, name: e.actorEmail! })}>
                            {e.actorEmail}
                          </button>
                        )}{' '}
                        ({label(e.actorRole.toUpperCase())})
                      </td>
                      {platform && (
                        <td>
                          {e.shopId === null ? (
                            'Platform'
                          ) : (
                            <button type="button" className="link-button" title={`Only ${e.shopName}'s entries`} onClick={() => choose('shop', { id: e.shopId!, name: e.shopName ?? '' })}>
                              {e.shopName}
                            </button>
                          )}
                        </td>
                      )}
                      <td>
                        {e.operation} <small>({label(e.action)})</small>
                      </td>
                      <td>
                        <button type="button" className="link-button" title="Only this row's history" onClick={() => narrowToTarget(e)}>
                          {e.targetName ?? `${e.targetType} #${e.targetId}`}
                        </button>
                        {e.targetName !== null ? (
                          <small>
                            {' '}
                            ({e.targetType} #{e.targetId})
                          </small>
                        ) : null}
                      </td>
                      <td>
                        <Changes entry={e} />
                      </td>
                      <td>
                        <code>{e.requestId}</code>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )}
            <Pager page={auditEntries.page} pageSize={auditEntries.pageSize} total={auditEntries.total} onPage={setPage} />
          </>
        )}
      </QueryResult>
    </>
  );
}
