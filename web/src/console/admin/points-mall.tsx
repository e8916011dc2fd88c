import { type FormEvent } from 'react';
import { useQuery } from 'urql';
import { graphql } from '../gql';
import type { AdminPointsProductsQuery } from '../gql/graphql';
import { regionLabel } from '../../ui/region-label';
import { QueryResult } from '../../ui/query-result';
import { ActionButton, Field, OptimisticSwitch, Pager, int, optionalText, text, useAction, usePageParam, when, useListContext } from '../kit';
import { PictureField } from '../picture-field';

const PAGE_SIZE = 20;

const AdminPointsProducts = graphql(`
  query AdminPointsProducts($page: Int, $pageSize: Int) {
    adminPointsProducts(page: $page, pageSize: $pageSize) {
      page
      pageSize
      total
      items {
        id
        name
        description
        imageUrl
        pointsPrice
        stock
        published
      }
    }
  }
`);

const AdminRedemptions = graphql(`
  query AdminRedemptions($page: Int, $pageSize: Int) {
    adminRedemptions(page: $page, pageSize: $pageSize, status: PENDING_FULFILLMENT) {
      page
      pageSize
      total
      items {
        id
        customerName
        productName
        quantity
        pointsTotal
        createdAt
        shippingAddress {
          recipient
          phone
          region
          address
        }
      }
    }
  }
`);

const CreatePointsProduct = graphql(`
  mutation ConsoleCreatePointsProduct($input: CreatePointsProductInput!) {
    createPointsProduct(input: $input) {
      pointsProduct {
        id
      }
      userErrors {
        ...UserErrorFields
      }
    }
  }
`);
const UpdatePointsProduct = graphql(`
  mutation ConsoleUpdatePointsProduct($input: UpdatePointsProductInput!) {
    updatePointsProduct(input: $input) {
      pointsProduct {
        id
        stock
        published
      }
      userErrors {
        ...UserErrorFields
      }
    }
  }
`);
const FulfilRedemption = graphql(`
  mutation ConsoleFulfilRedemption($input: FulfilRedemptionInput!) {
    fulfilRedemption(input: $input) {
      redemption {
        id
        status
      }
      userErrors {
        ...UserErrorFields
      }
    }
  }
`);

type PointsProduct = AdminPointsProductsQuery['adminPointsProducts']['items'][number];

/** Published or not, switched optimistically (withdrawing asks first). */
function PublishSwitch({ product }: { product: PointsProduct }) {
  const update = useAction(UpdatePointsProduct, (d) => d.updatePointsProduct, 'Not changed');
  const set = async (published: boolean) => (await update.run({ input: { pointsProductId: product.id, published } }))?.pointsProduct?.published ?? null;
  return (
    <OptimisticSwitch
      value={product.published}
      text={(shown) => <span>{shown ? 'Yes' : 'No'}</span>}
      busy={update.fetching}
      action={(shown) => (shown ? { to: false, label: 'Unpublish', confirm: 'Take it out of the points mall?', run: () => set(false) } : { to: true, label: 'Publish', run: () => set(true) })}
    >
      {update.refusal}
    </OptimisticSwitch>
  );
}

function Restock({ product }: { product: PointsProduct }) {
  const update = useAction(UpdatePointsProduct, (d) => d.updatePointsProduct, 'Not changed');
  const restock = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const formEl = event.currentTarget;
    const answer = await update.run({ input: { pointsProductId: product.id, stockDelta: int(new FormData(formEl).get('delta')) } });
    if (answer?.pointsProduct) formEl.reset();
  };
  return (
    <form onSubmit={restock} className="toolbar" aria-label={`Stock of ${product.name}`}>
      <label>
        Add or remove stock
        <input name="delta" type="number" required size={6} />
      </label>
      <button type="submit" disabled={update.fetching}>
        Apply
      </button>
      {update.refusal}
    </form>
  );
}

function NewPointsProduct() {
  const create = useAction(CreatePointsProduct, (d) => d.createPointsProduct, 'Not created');
  const errors = create.errors;
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const formEl = event.currentTarget;
    const form = new FormData(formEl);
    const answer = await create.run({
      input: {
        name: text(form.get('name')),
        description: optionalText(form.get('description')),
        imageUrl: optionalText(form.get('imageUrl')),
        pointsPrice: int(form.get('pointsPrice')),
        stock: int(form.get('stock')),
        published: form.get('published') === 'on',
      },
    });
    if (answer?.pointsProduct) formEl.reset();
  };
  return (
    <form onSubmit={submit} className="panel" aria-labelledby="new-points" noValidate>
      <h2 id="new-points">New points product</h2>
      <div className="form-grid">
        <Field label="Name" name="name" error={errors.of('name')}>
          {(p) => <input {...p} required />}
        </Field>
        <Field label="Points price" name="pointsPrice" error={errors.of('pointsPrice')}>
          {(p) => <input {...p} type="number" min={1} required />}
        </Field>
        <Field label="Stock" name="stock" error={errors.of('stock')}>
          {(p) => <input {...p} type="number" min={0} required />}
        </Field>
        <PictureField label="Picture" name="imageUrl" defaultValue={null} library="platform" error={errors.of('imageUrl')} />
        <Field label="Description" name="description" error={errors.of('description')}>
          {(p) => <input {...p} />}
        </Field>
        <label className="inline">
          <input type="checkbox" name="published" defaultChecked /> Published
        </label>
      </div>
      {create.unshown((k) => ['name', 'description', 'imageUrl', 'pointsPrice', 'stock'].includes(k))}
      <button type="submit" className="primary" disabled={create.fetching}>
        Create
      </button>
    </form>
  );
}

function Fulfil({ id }: { id: number }) {
  return <ActionButton mutation={FulfilRedemption} variables={{ input: { redemptionId: id } }} payload={(d) => d.fulfilRedemption} label="Mark sent" confirm="Mark this redemption as sent?" refused="Not fulfilled" />;
}

export function PointsMall() {
  const [page, setPage] = usePageParam();
  const [rpage, setRpage] = usePageParam('rpage');
  const [products] = useQuery({ query: AdminPointsProducts, context: useListContext('PointsProduct'), variables: { page, pageSize: PAGE_SIZE } });
  const [redemptions] = useQuery({ query: AdminRedemptions, context: useListContext('Redemption'), variables: { page: rpage, pageSize: PAGE_SIZE } });
  return (
    <>
      <h1>Points mall</h1>
      <QueryResult result={products} what="Loading points products">
        {({ adminPointsProducts: list }) => (
          <>
            <table className="grid">
              <thead>
                <tr>
                  <th scope="col">Product</th>
                  <th scope="col">Points</th>
                  <th scope="col">Stock</th>
                  <th scope="col">Published</th>
                  <th scope="col">Stock change</th>
                </tr>
              </thead>
              <tbody>
                {list.items.map((p) => (
                  <tr key={p.id}>
                    <td>{p.name}</td>
                    <td>{p.pointsPrice}</td>
                    <td>{p.stock}</td>
                    <td>
                      <PublishSwitch product={p} />
                    </td>
                    <td>
                      <Restock product={p} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
            <Pager page={list.page} pageSize={list.pageSize} total={list.total} onPage={setPage} />
          </>
        )}
      </QueryResult>
      <NewPointsProduct />
      <h2>Redemptions to send</h2>
      <QueryResult result={redemptions} what="Loading redemptions">
        {({ adminRedemptions: list }) => (
          <>
            <table className="grid">
              <thead>
                <tr>
                  <th scope="col">Redemption</th>
                  <th scope="col">Product</th>
                  <th scope="col">Points</th>
                  <th scope="col">Send to</th>
                  <th scope="col">Actions</th>
                </tr>
              </thead>
              <tbody>
                {list.items.map((r) => (
                  <tr key={r.id}>
                    <td>
                      #{r.id} · {r.customerName} · {when(r.createdAt)}
                    </td>
                    <td>
                      {r.productName} × {r.quantity}
                    </td>
                    <td>{r.pointsTotal}</td>
                    <td>
                      {r.shippingAddress.recipient}, {r.shippingAddress.phone}, {r.shippingAddress.address} ({regionLabel(r.shippingAddress.region)})
                    </td>
                    <td>
                      <Fulfil id={r.id} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
            {list.items.length === 0 ? <p className="empty">Nothing to send.</p> : null}
            <Pager page={list.page} pageSize={list.pageSize} total={list.total} onPage={setRpage} />
          </>
        )}
      </QueryResult>
    </>
  );
}
