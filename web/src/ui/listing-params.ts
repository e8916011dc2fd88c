import { useSearchParams } from 'react-router';
import type { ProductSort, SortOrder } from '../gql/graphql';

export const LISTING_PAGE_SIZE = 12;

/** Listing state lives in the URL (shareable, and the back button works): sort, order, brand, page. */
export interface ListingParams {
  sort: ProductSort | null;
  order: SortOrder | null;
  brandId: number | null;
  page: number;
}

const positive = (value: string | null) => {
  const n = value && /^\d{1,9}$/.test(value) ? Number(value) : 0;
  return n > 0 ? n : null;
};

export function useListingParams(): ListingParams {
  const [params] = useSearchParams();
  const sort = params.get('sort');
  const order = params.get('order');
  return {
    sort: sort === 'price' ? 'PRICE' : sort === 'sales' ? 'SALES' : null,
    order: order === 'asc' ? 'ASC' : order === 'desc' ? 'DESC' : null,
    brandId: positive(params.get('brand')),
    page: positive(params.get('page')) ?? 1,
  };
}

/** The variables of a listing query from the URL. */
export function listingVariables(p: ListingParams) {
  return { sort: p.sort, order: p.order, brandId: p.brandId, page: p.page, pageSize: LISTING_PAGE_SIZE };
}
