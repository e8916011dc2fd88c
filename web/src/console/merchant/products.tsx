import { useState, type FormEvent } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { useQuery } from 'urql';
import { graphql } from '../gql';
import type { ProductStatus, ProductEditorQuery } from '../gql/graphql';
import { Money } from '../../money/currency-context';
import { Missing, QueryResult } from '../../ui/query-result';
import { PictureField } from '../picture-field';
import { Field, OptimisticSwitch, Pager, StateSelect, fromMinor, useAction, int, label, optionalText, text, toMinor, useFilterParam, usePageParam, useListContext } from '../kit';

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
  query MerchantProductList($page: Int, $pageSize: Int, $status: ProductStatus, $q: String, $lowStock: Boolean) {
    merchantProducts(page: $page, pageSize: $pageSize, status: $status, q: $q, lowStock: $lowStock) {
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

export function ProductList() {
  const [page, setPage] = usePageParam();
  const [status, setStatus] = useFilterParam('status');
  const [q, setQ] = useFilterParam('q');
  const [lowStock, setLowStock] = useFilterParam('lowStock');
  const [result] = useQuery({
    query: ProductListQuery,
    context: useListContext('Product'),
    variables: { page, pageSize: PAGE_SIZE, status: (status || null) as ProductStatus | null, q: q || null, lowStock: lowStock ? true : null },
  });
  const search = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setQ(text(new FormData(event.currentTarget).get('q')));
  };
  return (
    <>
      <h1>Products</h1>
      <div className="toolbar">
        <form onSubmit={search} role="search" className="toolbar">
          <label>
            Search by name
            <input name="q" type="search" defaultValue={q} key={q} maxLength={200} />
          </label>
          <button type="submit">Search</button>
        </form>
        <StateSelect label="Status" value={status} states={STATUSES} onChange={setStatus} />
        <label className="inline">
          <input type="checkbox" checked={Boolean(lowStock)} onChange={(e) => setLowStock(e.target.checked ? '1' : '')} /> Low stock only
        </label>
        <Link to="/merchant/products/new" className="button primary">
          New product
        </Link>
      </div>
      <QueryResult result={result} what="Loading products">
        {({ merchantProducts: list }) => (
          <>
            <table className="grid" data-testid="product-table">
              <thead>
                <tr>
                  <th scope="col">Product</th>
                  <th scope="col">Status</th>
                  <th scope="col">From</th>
                  <th scope="col">Stock</th>
                  <th scope="col">Sold</th>
                </tr>
              </thead>
              <tbody>
                {list.items.map((p) => (
                  <tr key={p.id} data-product-id={p.id}>
                    <td>
                      <Link to={`/merchant/products/${p.id}`}>{p.name}</Link>
                    </td>
                    <td>
                      <PublishToggle id={p.id} status={p.status} />
                    </td>
                    <td>
                      <Money amount={p.priceFrom} />
                    </td>
                    <td>{p.skus.map((s) => `${s.name}: ${s.stock}`).join(', ')}</td>
                    <td>{p.soldCount}</td>
                  </tr>
                ))}
              </tbody>
            </table>
            {list.items.length === 0 ? <p className="empty">No product matches.</p> : null}
            <Pager page={list.page} pageSize={list.pageSize} total={list.total} onPage={setPage} />
          </>
        )}
      </QueryResult>
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

/** Create or edit a product with its complete SKU list; the server's user errors show on their fields. */
function ProductForm({ data, product }: { data: ProductEditorQuery; product: EditorProduct | undefined }) {
  const navigate = useNavigate();
  const [rows, setRows] = useState<SkuRow[]>(() => rowsOf(product));
  const upsert = useAction(UpsertProduct, (d) => d.upsertProduct, 'Not saved');
  const assign = useAction(AssignFreight, (d) => d.assignFreightTemplate, 'Freight template not set');
  const [saved, setSaved] = useState(false);
  const errors = upsert.errors;
  const setRow = (key: number, patch: Partial<SkuRow>) => setRows((all) => all.map((r) => (r.key === key ? { ...r, ...patch } : r)));

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setSaved(false);
    const form = new FormData(event.currentTarget);
    const brand = text(form.get('brandId'));
    const answer = await upsert.run({
      input: {
        id: product?.id ?? null,
        name: text(form.get('name')),
        description: optionalText(form.get('description')),
        imageUrl: optionalText(form.get('imageUrl')),
        categoryId: int(form.get('categoryId')),
        brandId: brand ? int(brand) : null,
        // An existing SKU's stock is sent only when the operator changed it: a stock-take. Left alone, sales since the form was read stand.
        skus: rows.map((r) => {
          const before = product?.skus.find((s) => s.id === r.id);
          const stock = before && String(before.stock) === r.stock ? null : Number.parseInt(r.stock, 10);
          return { id: r.id, name: r.name.trim(), price: toMinor(r.price), stock };
        }),
      },
    });
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
    <form onSubmit={submit} aria-label={product ? `Edit ${product.name}` : 'New product'} noValidate>
      <div className="form-grid">
        <Field label="Name" name="name" error={errors.of('name')}>
          {(p) => <input {...p} defaultValue={product?.name} required maxLength={200} />}
        </Field>
        <Field label="Category" name="categoryId" error={errors.of('categoryId')}>
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
        <Field label="Brand" name="brandId" error={errors.of('brandId')}>
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
      <PictureField label="Picture" name="imageUrl" defaultValue={product?.imageUrl} library="shop" error={errors.of('imageUrl')} />
      <Field label="Description" name="description" error={errors.of('description')}>
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
                  const error = errors.of(`skus.${i}.${col}`);
                  return (
                    <td key={col}>
                      <input
                        aria-label={`SKU ${i + 1} ${col}`}
                        value={r[col]}
                        inputMode={col === 'name' ? undefined : col === 'price' ? 'decimal' : 'numeric'}
                        onChange={(e) => setRow(r.key, { [col]: e.target.value })}
                        aria-invalid={Boolean(error)}
                        aria-describedby={error ? `sku-${i}-${col}-error` : undefined}
                      />
                      {error ? (
                        <p id={`sku-${i}-${col}-error`} className="field-message" role="alert">
                          {error}
                        </p>
                      ) : null}
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
