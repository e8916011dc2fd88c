import type { ChangeEvent } from 'react';
import { useSearchParams } from 'react-router';

/** Sort options of the listing: the API's `sort` and `order` (docs/api.md "Product listing"). */
const SORTS = [
  { value: '', label: 'Newest first' },
  { value: 'price:asc', label: 'Price: low to high' },
  { value: 'price:desc', label: 'Price: high to low' },
  { value: 'sales:desc', label: 'Best sellers' },
  { value: 'sales:asc', label: 'Fewest sold' },
];

export interface BrandOption {
  id: number;
  name: string;
}

/** Sort and brand filter; both change the URL and go back to page 1. */
export function ListingControls({ brands, showBrandFilter = true, defaultSortLabel }: { brands: BrandOption[]; showBrandFilter?: boolean; defaultSortLabel?: string }) {
  const [params, setParams] = useSearchParams();
  const current = params.get('sort') ? `${params.get('sort')}:${params.get('order') ?? (params.get('sort') === 'sales' ? 'desc' : 'asc')}` : '';
  const change = (apply: (next: URLSearchParams) => void) => {
    const next = new URLSearchParams(params);
    apply(next);
    next.delete('page');
    setParams(next);
  };
  const onSort = (event: ChangeEvent<HTMLSelectElement>) =>
    change((next) => {
      const [sort, order] = event.target.value.split(':');
      if (sort) {
        next.set('sort', sort);
        next.set('order', order);
      } else {
        next.delete('sort');
        next.delete('order');
      }
    });
  const onBrand = (event: ChangeEvent<HTMLSelectElement>) =>
    change((next) => (event.target.value ? next.set('brand', event.target.value) : next.delete('brand')));
  return (
    <div className="listing-controls">
      <label>
        Sort by{' '}
        <select value={current} onChange={onSort} name="sort">
          {SORTS.map((s) => (
            <option key={s.value} value={s.value}>
              {s.value === '' && defaultSortLabel ? defaultSortLabel : s.label}
            </option>
          ))}
        </select>
      </label>
      {showBrandFilter ? (
        <label>
          Brand{' '}
          <select value={params.get('brand') ?? ''} onChange={onBrand} name="brand">
            <option value="">All brands</option>
            {brands.map((b) => (
              <option key={b.id} value={b.id}>
                {b.name}
              </option>
            ))}
          </select>
        </label>
      ) : null}
    </div>
  );
}
