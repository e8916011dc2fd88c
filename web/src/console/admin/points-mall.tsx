import { type FormEvent } from 'react';
import { useQuery } from 'urql';
import { graphql } from '../gql';
import type { AdminPointsProductsQuery, AdminRedemptionsQuery } from '../gql/graphql';
import { regionLabel } from '../../ui/region-label';
import { ActionButton, ConfirmButton, Field, OptimisticSwitch, int, optionalText, text, useAction, usePageParam, when, useListContext } from '../kit';
import { DataTable, useEachSelected, type Column, type Selection } from '../data-table';
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

type Redemption = AdminRedemptionsQuery['adminRedemptions']['items'][number];

function Fulfil({ id }: { id: number }) {
  return <ActionButton mutation={FulfilRedemption} variables={{ input: { redemptionId: id } }} payload={(d) => d.fulfilRedemption} label="Mark sent" confirm="Mark this redemption as sent?" refused="Not fulfilled" />;
}

const PRODUCT_COLUMNS: readonly Column<PointsProduct>[] = [
  { header: 'Product', cell: (p) => p.name },
  { header: 'Points', cell: (p) => p.pointsPrice },
  { header: 'Stock', cell: (p) => p.stock },
  { header: 'Published', cell: (p) => <PublishSwitch product={p} /> },
  { header: 'Stock change', cell: (p) => <Restock product={p} /> },
];

/** A redemption as a console user names it: its product and its customer, never its id alone. */
const redemptionName = (r: Redemption) => `${r.productName} for ${r.customerName} (#${r.id})`;

const REDEMPTION_COLUMNS: readonly Column<Redemption>[] = [
  { header: 'Redemption', cell: (r) => `#${r.id} · ${r.customerName} · ${when(r.createdAt)}` },
  { header: 'Product', cell: (r) => `${r.productName} × ${r.quantity}` },
  { header: 'Points', cell: (r) => r.pointsTotal },
  { header: 'Send to', cell: (r) => `${r.shippingAddress.recipient}, ${r.shippingAddress.phone}, ${r.shippingAddress.address} (${regionLabel(r.shippingAddress.region)})` },
  { header: 'Actions', cell: (r) => <Fulfil id={r.id} /> },
];

/** The selected redemptions marked sent, one fulfilment each (its own permission and rule), naming any refused. */
function SendSelected(selection: Selection<Redemption>) {
  const fulfil = useAction(FulfilRedemption, (d) => d.fulfilRedemption, 'Not fulfilled');
  const { busy, run } = useEachSelected(selection, redemptionName);
  const send = () => run(async (r) => Boolean((await fulfil.run({ input: { redemptionId: r.id } }))?.redemption), 'marked sent');
  return <ConfirmButton label="Mark sent" question={`Mark ${selection.rows.length} as sent?`} disabled={busy} onConfirm={() => void send()} />;
}

export function PointsMall() {
  const [page] = usePageParam();
  const [rpage] = usePageParam('rpage');
  const [products] = useQuery({ query: AdminPointsProducts, context: useListContext('PointsProduct'), variables: { page, pageSize: PAGE_SIZE } });
  const [redemptions, rereadRedemptions] = useQuery({ query: AdminRedemptions, context: useListContext('Redemption'), variables: { page: rpage, pageSize: PAGE_SIZE } });
  return (
    <>
      <h1>Points mall</h1>
      <DataTable label="Points products" result={products} list={(data) => data.adminPointsProducts} columns={PRODUCT_COLUMNS} rowKey={(p) => p.id} empty="No points product yet." />
      <NewPointsProduct />
      <h2>Redemptions to send</h2>
      <DataTable
        label="Redemptions to send"
        testId="redemption-table"
        pageParam="rpage"
        result={redemptions}
        list={(data) => data.adminRedemptions}
        columns={REDEMPTION_COLUMNS}
        rowKey={(r) => r.id}
        rowLabel={redemptionName}
        rowProps={(r) => ({ 'data-redemption-id': r.id })}
        bulk={(selection) => <SendSelected {...selection} />}
        reread={rereadRedemptions}
        empty="Nothing to send."
        what="Loading redemptions"
      />
    </>
  );
}
