import { useState } from 'react';
import { useQuery } from 'urql';
import { graphql } from '../gql';
import type { AdminBrandsQuery } from '../gql/graphql';
import { QueryResult } from '../../ui/query-result';
import { RunButton, useAction, useListContext } from '../kit';
import { RowOrder, useOrderedRows } from './ordered-rows';

const AdminBrands = graphql(`
  query AdminBrands {
    brands {
      id
      name
      logoUrl
      position
    }
  }
`);

const ReplaceBrands = graphql(`
  mutation ConsoleReplaceBrands($input: ReplaceBrandsInput!) {
    replaceBrands(input: $input) {
      brands {
        id
        name
        logoUrl
        position
      }
      userErrors {
        ...UserErrorFields
      }
    }
  }
`);

interface BrandRow {
  id: number | null;
  name: string;
  logoUrl: string;
}

function BrandEditor({ brands }: { brands: AdminBrandsQuery['brands'] }) {
  const list = useOrderedRows<BrandRow>(() => brands.map((b) => ({ id: b.id, name: b.name, logoUrl: b.logoUrl ?? '' })));
  const replace = useAction(ReplaceBrands, (d) => d.replaceBrands, 'Not saved');
  const [saved, setSaved] = useState(false);
  const errors = replace.errors;
  const removed = brands.filter((b) => !list.rows.some((r) => r.id === b.id));
  const save = async () => {
    setSaved(false);
    const answer = await replace.run({ input: { items: list.rows.map((r) => ({ id: r.id, name: r.name.trim(), logoUrl: r.logoUrl.trim() || null })) } });
    const stored = answer?.brands;
    if (stored) {
      list.reset(stored.map((b) => ({ id: b.id, name: b.name, logoUrl: b.logoUrl ?? '' })));
      setSaved(true);
    }
  };
  return (
    <>
      <table className="grid" data-testid="brand-table">
        <thead>
          <tr>
            <th scope="col">Order</th>
            <th scope="col">Name</th>
            <th scope="col">Logo URL</th>
            <th scope="col">
              <span className="visually-hidden">Remove</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {list.rows.map((r, i) => (
            <tr key={r.key} {...list.target(r.key, i)} data-testid="brand-row">
              <td>
                <RowOrder what={r.name || `row ${i + 1}`} index={i} count={list.rows.length} handle={list.handle(r.key)} onMove={(by) => list.move(r.key, by)} />
              </td>
              <td>
                <input aria-label={`Brand ${i + 1} name`} value={r.name} onChange={(e) => list.set(r.key, { name: e.target.value })} aria-invalid={Boolean(errors.of(`items.${i}.name`))} />
                {errors.of(`items.${i}.name`) ? <p className="field-message">{errors.of(`items.${i}.name`)}</p> : null}
              </td>
              <td>
                <input aria-label={`Brand ${i + 1} logo URL`} type="url" value={r.logoUrl} onChange={(e) => list.set(r.key, { logoUrl: e.target.value })} aria-invalid={Boolean(errors.of(`items.${i}.logoUrl`))} />
                {errors.of(`items.${i}.logoUrl`) ? <p className="field-message">{errors.of(`items.${i}.logoUrl`)}</p> : null}
              </td>
              <td>
                <button type="button" aria-label={`Remove brand ${r.name || i + 1}`} onClick={() => list.remove(r.key)}>
                  Remove
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <div className="row-actions">
        <button type="button" onClick={() => list.add({ id: null, name: '', logoUrl: '' })}>
          Add brand
        </button>
        <RunButton
          label="Save brands"
          className="primary"
          confirm={removed.length > 0 ? `Save, deleting ${removed.map((b) => b.name).join(', ')}?` : undefined}
          onRun={() => void save()}
          disabled={replace.fetching}
        />
        {saved ? <span role="status">Saved in this order.</span> : null}
      </div>
      {replace.refusal}
    </>
  );
}

/** The brand list is replaced whole, in the order shown (dragged, or moved by the arrows): one request, all or nothing. */
export function Brands() {
  const [result] = useQuery({ query: AdminBrands, context: useListContext('Brand') });
  return (
    <>
      <h1>Brands</h1>
      <QueryResult result={result} what="Loading brands">
        {(data) => <BrandEditor brands={data.brands} />}
      </QueryResult>
    </>
  );
}
