import { useState } from 'react';
import { useQuery } from 'urql';
import { graphql } from '../gql';
import { formatMoney } from '../../money/format-money';
import { useCurrency } from '../../money/currency-context';

const SkuChoices = graphql(`
  query SkuChoices($q: String) {
    merchantProducts(q: $q, pageSize: 50) {
      total
      items {
        id
        name
        skus {
          id
          name
          price
          stock
        }
      }
    }
  }
`);

/** A SKU of the shop: type words of the product's name to narrow the choice (the server searches, 50 products at most). */
export function SkuPicker({ id, name, label, invalid }: { id: string; name: string; label: string; invalid?: boolean }) {
  const [q, setQ] = useState('');
  const [result] = useQuery({ query: SkuChoices, variables: { q: q.trim() || null } });
  const currency = useCurrency();
  const products = result.data?.merchantProducts.items ?? [];
  return (
    <span className="sku-picker-field">
      <input type="search" aria-label={`${label}: find product`} placeholder="Find product…" value={q} onChange={(e) => setQ(e.target.value)} />
      <select id={id} name={name} aria-label={label} required aria-invalid={invalid}>
        <option value="">Choose a SKU…</option>
        {products.map((p) => (
          <optgroup key={p.id} label={p.name}>
            {p.skus.map((s) => (
              <option key={s.id} value={s.id}>
                {p.name} · {s.name} · {formatMoney(s.price, currency)} · {s.stock} in stock
              </option>
            ))}
          </optgroup>
        ))}
      </select>
    </span>
  );
}
