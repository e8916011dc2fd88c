import { useState } from 'react';
import { useQuery } from 'urql';
import { graphql } from '../gql';
import type { AdminContentQuery, ContentKind } from '../gql/graphql';
import { QueryResult } from '../../ui/query-result';
import { Image } from '../../ui/image';
import { ConfirmButton, useAction, useListContext } from '../kit';
import { RowOrder, useOrderedRows } from './ordered-rows';

const AdminContent = graphql(`
  query AdminContent {
    adminContent {
      banners {
        ...AdminContentFields
      }
      promos {
        ...AdminContentFields
      }
      quickLinks {
        ...AdminContentFields
      }
      floorAdverts {
        ...AdminContentFields
      }
    }
  }

  fragment AdminContentFields on ContentItem {
    id
    position
    active
    title
    subtitle
    imageUrl
    destination
  }
`);

const ReplaceHomeContent = graphql(`
  mutation ConsoleReplaceHomeContent($input: ReplaceHomeContentInput!) {
    replaceHomeContent(input: $input) {
      items {
        ...AdminContentFields
      }
      userErrors {
        ...UserErrorFields
      }
    }
  }
`);

type Lists = AdminContentQuery['adminContent'];
const KINDS: { kind: ContentKind; field: keyof Lists; title: string; className: string }[] = [
  { kind: 'BANNERS', field: 'banners', title: 'Banners', className: 'banner' },
  { kind: 'QUICK_LINKS', field: 'quickLinks', title: 'Quick links', className: 'quick-link' },
  { kind: 'PROMOS', field: 'promos', title: 'Promotions', className: 'promo' },
  { kind: 'FLOOR_ADVERTS', field: 'floorAdverts', title: 'Floor adverts', className: 'floor-advert' },
];

interface ItemRow {
  title: string;
  subtitle: string;
  imageUrl: string;
  destination: string;
  active: boolean;
}

const COLUMNS = [
  ['title', 'Title'],
  ['subtitle', 'Subtitle'],
  ['imageUrl', 'Image URL'],
  ['destination', 'Destination'],
] as const;

/** One list, replaced whole and atomically; the preview shows the active items as the storefront will. */
function ListEditor({ items, kind, title, className }: { items: Lists['banners']; kind: ContentKind; title: string; className: string }) {
  const list = useOrderedRows<ItemRow>(() => items.map((i) => ({ title: i.title, subtitle: i.subtitle ?? '', imageUrl: i.imageUrl ?? '', destination: i.destination, active: i.active })));
  const replace = useAction(ReplaceHomeContent, (d) => d.replaceHomeContent, 'Not replaced');
  const [saved, setSaved] = useState(false);
  const errors = replace.errors;
  const save = async () => {
    setSaved(false);
    const answer = await replace.run({
      input: { kind, items: list.rows.map((r) => ({ title: r.title.trim(), subtitle: r.subtitle.trim() || null, imageUrl: r.imageUrl.trim() || null, destination: r.destination.trim(), active: r.active })) },
    });
    if (answer?.items) setSaved(true);
  };
  const shown = list.rows.filter((r) => r.active);
  return (
    <section aria-labelledby={`${kind}-heading`} className="panel">
      <h2 id={`${kind}-heading`}>{title}</h2>
      <table className="grid">
        <thead>
          <tr>
            <th scope="col">Order</th>
            {COLUMNS.map(([, label]) => (
              <th key={label} scope="col">
                {label}
              </th>
            ))}
            <th scope="col">Shown</th>
            <th scope="col">
              <span className="visually-hidden">Remove</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {list.rows.map((r, i) => (
            <tr key={r.key} {...list.target(r.key, i)}>
              <td>
                <RowOrder what={r.title || `item ${i + 1}`} index={i} count={list.rows.length} handle={list.handle(r.key)} onMove={(by) => list.move(r.key, by)} />
              </td>
              {COLUMNS.map(([col, label]) => {
                const error = errors.of(`items.${i}.${col}`);
                return (
                  <td key={col}>
                    <input
                      aria-label={`${title} ${i + 1} ${label}`}
                      value={r[col]}
                      placeholder={col === 'destination' ? '/flash-sales' : ''}
                      onChange={(e) => list.set(r.key, { [col]: e.target.value })}
                      aria-invalid={Boolean(error)}
                    />
                    {error ? <p className="field-message">{error}</p> : null}
                  </td>
                );
              })}
              <td>
                <input type="checkbox" aria-label={`${title} ${i + 1} shown`} checked={r.active} onChange={(e) => list.set(r.key, { active: e.target.checked })} />
              </td>
              <td>
                <button type="button" aria-label={`Remove ${title} ${i + 1}`} onClick={() => list.remove(r.key)}>
                  Remove
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <div className="row-actions">
        <button type="button" onClick={() => list.add({ title: '', subtitle: '', imageUrl: '', destination: '', active: true })}>
          Add item
        </button>
        <ConfirmButton label={`Replace ${title.toLowerCase()}`} question={`Replace the storefront's ${title.toLowerCase()} with these ${list.rows.length}?`} onConfirm={() => void save()} disabled={replace.fetching} />
        {saved ? <span role="status">Replaced: the storefront shows it now.</span> : null}
      </div>
      {replace.refusal}
      <div className="preview" aria-label={`${title} preview`}>
        <p className="meta">Preview</p>
        {shown.length === 0 ? <p className="empty">Nothing shown.</p> : null}
        <div className={`${className}-list`}>
          <ul>
            {shown.map((r) => (
              <li key={r.key}>
                <span className={className}>
                  {r.imageUrl ? <Image src={r.imageUrl} alt="" /> : null}
                  <strong>{r.title}</strong>
                  {r.subtitle ? <span>{r.subtitle}</span> : null}
                </span>
              </li>
            ))}
          </ul>
        </div>
      </div>
    </section>
  );
}

export function HomeContentEditor() {
  const [result] = useQuery({ query: AdminContent, context: useListContext('ContentItem') });
  return (
    <>
      <h1>Home content</h1>
      <p className="meta">Each list is replaced whole, in one request: the storefront shows the old list or the new one, never a mix.</p>
      <QueryResult result={result} what="Loading home content">
        {(data) => (
          <>
            {KINDS.map((k) => (
              <ListEditor key={k.kind} items={data.adminContent[k.field]} kind={k.kind} title={k.title} className={k.className} />
            ))}
          </>
        )}
      </QueryResult>
    </>
  );
}
