import { useState, type FormEvent } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { useQuery } from 'urql';
import { graphql } from '../gql';
import type { MerchantProductListQuery, MerchantProductSort, ProductStatus, ProductEditorQuery } from '../gql/graphql';
import { Money } from '../../money/currency-context';
import { Missing, QueryResult } from '../../ui/query-result';
import { PictureField } from '../picture-field';
import { ConfirmButton, Field, FieldMessage, OptimisticSwitch, StateSelect, checkedProps, fromMinor, useAction, int, label, optionalText, text, toMinor, useFilterParams, usePageParam, useListContext } from '../kit';
import { DataTable, useEachSelected, useSortParam, type Column, type Selection } from '../data-table';
import { lazySchema, useFormCheck } from '../form-check';

const upsertSchema = lazySchema(() => import('../../../../src/services/catalog/product.inputs').then((m) => m.UpsertInput));

const PAGE_SIZE = 20;

export const MerchantProductFields = graphql(`
  fragment MerchantProductFields on Product {
    id
    name
    description
    imageUrl
    status
    priceFrom
    soldCount
    categoryId
    brandId
    freightTemplateId
    updatedAt
    skus {
      id
      name
      price
      stock
    }
  }
`);

const ProductListQuery = graphql(`
  query MerchantProductList($page: Int, $pageSize: Int, $status: ProductStatus, $q: String, $lowStock: Boolean, $sort: MerchantProductSort) {
    merchantProducts(page: $page, pageSize: $pageSize, status: $status, q: $q, lowStock: $lowStock, sort: $sort) {
      page
      pageSize
      total
      items {
        ...MerchantProductFields
      }
    }
  }
`);

const PublishProduct = graphql(`
  mutation PublishProduct($input: PublishProductInput!) {
    publishProduct(input: $input) {
      product {
        id
        status
      }
      userErrors {
        ...UserErrorFields
      }
    }
  }
`);

const UnpublishProduct = graphql(`
  mutation UnpublishProduct($input: UnpublishProductInput!) {
    unpublishProduct(input: $input) {
      product {
        id
        status
      }
      userErrors {
        ...UserErrorFields
      }
    }
  }
`);

const STATUSES: ProductStatus[] = ['DRAFT', 'PUBLISHED', 'UNPUBLISHED', 'HELD'];

/**
 * The product's status with the button that changes it: publishing shows it on the storefront,
 * withdrawing it asks first. Optimistic: the new status shows at once, then the server's. A held
 * product (its shop suspended) can only be withdrawn: publishing waits for the shop's reinstatement.
 */
function PublishToggle({ id, status }: { id: number; status: ProductStatus }) {
  const publish = useAction(PublishProduct, (d) => d.publishProduct, 'Not published');
  const unpublish = useAction(UnpublishProduct, (d) => d.unpublishProduct, 'Not unpublished');
  const input = { input: { productId: id } };
  return (
    <OptimisticSwitch
      value={status}
      text={(shown) => <strong data-testid="product-status">{label(shown)}</strong>}
      busy={publish.fetching || unpublish.fetching}
      action={(shown) =>
        shown === 'PUBLISHED' || shown === 'HELD'
          ? { to: 'UNPUBLISHED' as const, label: 'Unpublish', confirm: 'Take it off the storefront?', run: async () => (await unpublish.run(input))?.product?.status ?? null }
          : { to: 'PUBLISHED' as const, label: 'Publish', run: async () => (await publish.run(input))?.product?.status ?? null }
      }
    >
      {publish.refusal}
      {unpublish.refusal}
    </OptimisticSwitch>
  );
}

type ListedProduct = MerchantProductListQuery['merchantProducts']['items'][number];

const PRODUCT_SORTS: readonly MerchantProductSort[] = ['NEWEST', 'OLDEST', 'NAME_ASC', 'NAME_DESC', 'PRICE_ASC', 'PRICE_DESC'];

const PRODUCT_COLUMNS: readonly Column<ListedProduct>[] = [
  { header: 'Product', sort: { asc: 'NAME_ASC', desc: 'NAME_DESC' }, cell: (p) => <Link to={`/merchant/products/${p.id}`}>{p.name}</Link> },
  { header: 'Status', cell: (p) => <PublishToggle id={p.id} status={p.status} /> },
  { header: 'From', sort: { asc: 'PRICE_ASC', desc: 'PRICE_DESC' }, cell: (p) => <Money amount={p.priceFrom} /> },
  { header: 'Stock', cell: (p) => p.skus.map((s) => `${s.name}: ${s.stock}`).join(', ') },
  { header: 'Sold', cell: (p) => p.soldCount },
];

/**
 * Publishes or withdraws the selected products, one mutation each (the single product's, with its
 * permission and its rules: a held product is not published again), then says how many moved and
 * which were refused, by name.
 */
function ProductBulkActions(selection: Selection<ListedProduct>) {
  const { rows } = selection;
  const publish = useAction(PublishProduct, (d) => d.publishProduct, 'Not published');
  const unpublish = useAction(UnpublishProduct, (d) => d.unpublishProduct, 'Not unpublished');
  const { busy, run: each } = useEachSelected(selection, (row) => row.name);
  const run = (action: typeof publish | typeof unpublish, moved: string) => each(async (row) => Boolean((await action.run({ input: { productId: row.id } }))?.product), moved);
  return (
    <>
      <button type="button" disabled={busy} onClick={() => void run(publish, 'published')}>
        Publish
      </button>
      <ConfirmButton label="Unpublish" question={`Take ${rows.length} off the storefront?`} disabled={busy} onConfirm={() => void run(unpublish, 'unpublished')} />
    </>
  );
}

export function ProductList() {
  const [page] = usePageParam();
  const [{ status, q, lowStock }, setFilters] = useFilterParams(['status', 'q', 'lowStock']);
  const [sort] = useSortParam();
  const [result, reread] = useQuery({
    query: ProductListQuery,
    context: useListContext('Product'),
    variables: {
      page,
      pageSize: PAGE_SIZE,
      status: (status || null) as ProductStatus | null,
      q: q || null,
      lowStock: lowStock ? true : null,
      sort: PRODUCT_SORTS.find((s) => s === sort) ?? null,
    },
  });
  return (
    <>
      <h1>Products</h1>
      <DataTable
        label="Products"
        testId="product-table"
        result={result}
        list={(data) => data.merchantProducts}
        columns={PRODUCT_COLUMNS}
        rowKey={(p) => p.id}
        rowLabel={(p) => p.name}
        rowProps={(p) => ({ 'data-product-id': p.id })}
        search={{ label: 'Search by name' }}
        filters={
          <>
            <StateSelect label="Status" value={status} states={STATUSES} onChange={(value) => setFilters({ status: value })} />
            <label className="inline">
              <input type="checkbox" checked={Boolean(lowStock)} onChange={(e) => setFilters({ lowStock: e.target.checked ? '1' : '' })} /> Low stock only
            </label>
          </>
        }
        actions={
          <Link to="/merchant/products/new" className="button primary">
            New product
          </Link>
        }
        bulk={(selection) => <ProductBulkActions {...selection} />}
        reread={reread}
        empty="No product matches."
        what="Loading products"
      />
    </>
  );
}

const ProductEditorQuery = graphql(`
  query ProductEditor($id: Int, $editing: Boolean!) {
    categories {
      id
      name
      depth
      path
    }
    brands {
      id
      name
    }
    freightTemplates(pageSize: 100) {
      items {
        id
        name
      }
    }
    merchantProducts(id: $id, pageSize: 1) @include(if: $editing) {
      items {
        ...MerchantProductFields
      }
    }
  }
`);

const UpsertProduct = graphql(`
  mutation UpsertProduct($input: UpsertProductInput!) {
    upsertProduct(input: $input) {
      product {
        ...MerchantProductFields
      }
      userErrors {
        ...UserErrorFields
      }
    }
  }
`);

const AssignFreight = graphql(`
  mutation AssignFreight($input: AssignFreightTemplateInput!) {
    assignFreightTemplate(input: $input) {
      assignment {
        productId
        freightTemplateId
      }
      userErrors {
        ...UserErrorFields
      }
    }
  }
`);

type EditorProduct = NonNullable<ProductEditorQuery['merchantProducts']>['items'][number];
interface SkuRow {
  key: number;
  id: number | null;
  name: string;
  price: string;
  stock: string;
}

let nextKey = 1;
const rowsOf = (product: EditorProduct | undefined): SkuRow[] =>
  product ? product.skus.map((s) => ({ key: nextKey++, id: s.id, name: s.name, price: fromMinor(s.price), stock: String(s.stock) })) : [{ key: nextKey++, id: null, name: '', price: '', stock: '' }];

/** A decimal amount typed in a form, in minor units; left empty it is missing (null), which the schema names as required. */
const requiredMinor = (value: FormDataEntryValue | null): number | null => (text(value) === '' ? null : toMinor(value));

/**
 * Create or edit a product with its complete SKU list. Each field is checked as it is typed by the
 * schema the server parses the product with (product.inputs.ts); the server's user errors show on their
 * fields too.
 */
function ProductForm({ data, product }: { data: ProductEditorQuery; product: EditorProduct | undefined }) {
  const navigate = useNavigate();
  const [rows, setRows] = useState<SkuRow[]>(() => rowsOf(product));
  const upsert = useAction(UpsertProduct, (d) => d.upsertProduct, 'Not saved');
  const assign = useAction(AssignFreight, (d) => d.assignFreightTemplate, 'Freight template not set');
  const [saved, setSaved] = useState(false);
  const errors = upsert.errors;
  const setRow = (key: number, patch: Partial<SkuRow>) => setRows((all) => all.map((r) => (r.key === key ? { ...r, ...patch } : r)));
  const inputOf = (form: FormData) => {
    const brand = text(form.get('brandId'));
    return {
      id: product?.id ?? null,
      name: text(form.get('name')),
      description: optionalText(form.get('description')),
      imageUrl: optionalText(form.get('imageUrl')),
      categoryId: int(form.get('categoryId')),
      brandId: brand ? int(brand) : null,
      // An existing SKU's stock is sent only when the operator changed it: a stock-take. Left alone, sales since the form was read stand.
      skus: rows.map((r, i) => {
        const before = product?.skus.find((s) => s.id === r.id);
        const typed = text(form.get(`skus.${i}.stock`));
        const stock = before && String(before.stock) === typed ? null : typed === '' ? null : Number(typed);
        return { id: r.id, name: text(form.get(`skus.${i}.name`)), price: requiredMinor(form.get(`skus.${i}.price`)), stock };
      }),
    };
  };
  const check = useFormCheck(upsertSchema, inputOf);
  const message = (key: string) => check.message(key, errors.of(key));

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setSaved(false);
    // Read before waiting: the event's form is gone once the handler has awaited.
    const form = new FormData(event.currentTarget);
    if (!(await check.check())) return;
    const input = inputOf(form);
    // The check passed: every price is there.
    const answer = await upsert.run({ input: { ...input, skus: input.skus.map((s) => ({ ...s, price: s.price ?? 0 })) } });
    const stored = answer?.product;
    if (!stored) return;
    const freight = text(form.get('freightTemplateId'));
    if (freight !== String(product?.freightTemplateId ?? '')) {
      const assigned = await assign.run({ input: { productId: stored.id, freightTemplateId: freight ? int(freight) : null } });
      if (!assigned?.assignment) return;
    }
    setSaved(true);
    if (!product) navigate(`/merchant/products/${stored.id}`, { replace: true });
    else setRows(rowsOf(stored));
  };

  const shownFields = (key: string) => ['name', 'description', 'imageUrl', 'categoryId', 'brandId'].includes(key) || /^skus\.\d+\.(name|price|stock)$/.test(key);
  return (
    <form {...check.form} onSubmit={submit} aria-label={product ? `Edit ${product.name}` : 'New product'}>
      <div className="form-grid">
        <Field label="Name" name="name" {...check.field('name', errors.of('name'))}>
          {(p) => <input {...p} defaultValue={product?.name} required maxLength={200} />}
        </Field>
        <Field label="Category" name="categoryId" {...check.field('categoryId', errors.of('categoryId'))}>
          {(p) => (
            <select {...p} defaultValue={product?.categoryId ?? ''} required>
              <option value="">Choose…</option>
              {data.categories.map((c) => (
                <option key={c.id} value={c.id}>
                  {'— '.repeat(c.depth)}
                  {c.name}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field label="Brand" name="brandId" {...check.field('brandId', errors.of('brandId'))}>
          {(p) => (
            <select {...p} defaultValue={product?.brandId ?? ''}>
              <option value="">No brand</option>
              {data.brands.map((b) => (
                <option key={b.id} value={b.id}>
                  {b.name}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field label="Freight template" name="freightTemplateId">
          {(p) => (
            <select {...p} defaultValue={product?.freightTemplateId ?? ''}>
              <option value="">Ships free</option>
              {data.freightTemplates.items.map((f) => (
                <option key={f.id} value={f.id}>
                  {f.name}
                </option>
              ))}
            </select>
          )}
        </Field>
      </div>
      <PictureField label="Picture" name="imageUrl" defaultValue={product?.imageUrl} library="shop" {...check.field('imageUrl', errors.of('imageUrl'))} />
      <Field label="Description" name="description" {...check.field('description', errors.of('description'))}>
        {(p) => <textarea {...p} rows={3} defaultValue={product?.description ?? ''} />}
      </Field>
      <fieldset>
        <legend>SKUs</legend>
        <table className="grid">
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Price</th>
              <th scope="col">Stock</th>
              <th scope="col">
                <span className="visually-hidden">Remove</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r, i) => (
              <tr key={r.key}>
                {(['name', 'price', 'stock'] as const).map((col) => {
                  const key = `skus.${i}.${col}`;
                  return (
                    <td key={col}>
                      <input
                        {...checkedProps(`sku-${i}-${col}`, key, message(key))}
                        aria-label={`SKU ${i + 1} ${col}`}
                        value={r[col]}
                        inputMode={col === 'name' ? undefined : col === 'price' ? 'decimal' : 'numeric'}
                        onChange={(e) => setRow(r.key, { [col]: e.target.value })}
                      />
                      <FieldMessage id={`sku-${i}-${col}`} message={message(key)} />
                    </td>
                  );
                })}
                <td>
                  <button type="button" onClick={() => setRows((all) => all.filter((x) => x.key !== r.key))} disabled={rows.length === 1} aria-label={`Remove SKU ${i + 1}`}>
                    Remove
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        <button type="button" onClick={() => setRows((all) => [...all, { key: nextKey++, id: null, name: '', price: '', stock: '' }])}>
          Add SKU
        </button>
      </fieldset>
      {check.unshown()}
      {upsert.unshown(shownFields)}
      {assign.refusal}
      <p className="row-actions">
        <button type="submit" className="primary" disabled={upsert.fetching || assign.fetching}>
          {product ? 'Save changes' : 'Create product'}
        </button>
        {saved ? (
          <span role="status" className="notice-ok">
            Saved.
          </span>
        ) : null}
      </p>
    </form>
  );
}

export function ProductEditor() {
  const { id } = useParams();
  const editing = id !== undefined;
  const [result] = useQuery({ query: ProductEditorQuery, variables: { id: editing ? Number(id) : null, editing } });
  return (
    <>
      <p>
        <Link to="/merchant/products">← Products</Link>
      </p>
      <QueryResult result={result} what="Loading the product">
        {(data) => {
          const product = data.merchantProducts?.items[0];
          if (editing && !product) return <Missing error={result.error} what="product" />;
          return (
            <>
              <h1>{product ? product.name : 'New product'}</h1>
              {product ? (
                <div className="row-actions">
                  Status: <PublishToggle id={product.id} status={product.status} />
                </div>
              ) : null}
              <ProductForm key={product?.id ?? 'new'} data={data} product={product} />
            </>
          );
        }}
      </QueryResult>
    </>
  );
}
