import { useState, type FormEvent } from 'react';
import { useQuery } from 'urql';
import { graphql } from '../gql';
import type { CouponTemplateStatus, DiscountKind, FlashSaleState, MerchantCouponTemplatesQuery, MerchantFlashSalesQuery, MerchantGroupBuysQuery } from '../gql/graphql';
import { Money } from '../../money/currency-context';
import { ActionButton, ConfirmButton, Field, OptimisticSwitch, StateSelect, int, label, optionalMinor, text, toInstant, toLocalInput, toMinor, useAction, useFilterParam, usePageParam, when, useListContext } from '../kit';
import { DataTable, useEachSelected, type Column, type Selection } from '../data-table';
import { lazySchema, useFormCheck } from '../form-check';

const sessionSchema = lazySchema(() => import('../../../../src/services/promotions/flash-sale.inputs').then((m) => m.SessionInput));
const couponSchema = lazySchema(() => import('../../../../src/services/promotions/coupon.inputs').then((m) => m.couponTermsSchemas(m.COUPON_SPELLINGS.kinds, m.COUPON_SPELLINGS.statuses).Terms));
/** A whole number typed in a form; left empty it is missing (null). Not a whole number, it stays one the schema refuses. */
const wholeOrNull = (value: FormDataEntryValue | null): number | null => (text(value) === '' ? null : Number(text(value)));

/** A decimal amount typed in a form, in minor units; left empty it is missing (null), which the schema names as required. */
const requiredMinor = (value: FormDataEntryValue | null): number | null => (text(value) === '' ? null : toMinor(value));
/** A `datetime-local` value as an instant, or null when it is empty or no date (the schema then names the field). */
const optionalInstant = (local: FormDataEntryValue | null): string | null => (Number.isNaN(new Date(String(local ?? '')).getTime()) ? null : toInstant(local));
import { SkuPicker } from './sku-picker';

const PAGE_SIZE = 20;

const CouponTemplates_ = graphql(`
  query MerchantCouponTemplates($page: Int, $pageSize: Int, $status: CouponTemplateStatus) {
    merchantCouponTemplates(page: $page, pageSize: $pageSize, status: $status) {
      page
      pageSize
      total
      items {
        id
        name
        discountKind
        amountOff
        percentOff
        maxDiscount
        minOrderAmount
        validFrom
        validUntil
        validDays
        claimStock
        status
        claimedCount
        usedCount
      }
    }
  }
`);

const CreateCouponTemplate = graphql(`
  mutation ConsoleCreateCouponTemplate($input: CreateCouponTemplateInput!) {
    createCouponTemplate(input: $input) {
      template {
        id
        name
        status
      }
      userErrors {
        ...UserErrorFields
      }
    }
  }
`);

const DisableCouponTemplate = graphql(`
  mutation ConsoleDisableCouponTemplate($input: DisableCouponTemplateInput!) {
    disableCouponTemplate(input: $input) {
      template {
        id
        status
      }
      userErrors {
        ...UserErrorFields
      }
    }
  }
`);

function CouponTemplateForm() {
  const create = useAction(CreateCouponTemplate, (d) => d.createCouponTemplate, 'Not created');
  const [kind, setKind] = useState<DiscountKind>('FIXED');
  const errors = create.errors;
  const termsOf = (form: FormData) => {
    const discountKind = (text(form.get('discountKind')) || kind) as DiscountKind;
    return {
      name: text(form.get('name')),
      discountKind,
      amountOff: discountKind === 'FIXED' ? requiredMinor(form.get('amountOff')) : null,
      percentOff: discountKind === 'PERCENT' ? wholeOrNull(form.get('percentOff')) : null,
      maxDiscount: discountKind === 'PERCENT' ? optionalMinor(form.get('maxDiscount')) : null,
      // Left out (not null) when empty: the server then takes no minimum (0).
      minOrderAmount: optionalMinor(form.get('minOrderAmount')) ?? undefined,
      validFrom: optionalInstant(form.get('validFrom')),
      validUntil: optionalInstant(form.get('validUntil')),
      validDays: wholeOrNull(form.get('validDays')),
      claimStock: wholeOrNull(form.get('claimStock')),
    };
  };
  // The terms as they are sent, in the service's spelling of the kind: GraphQL names each enum value
  // as its internal spelling in capitals (FIXED is fixed), so the schema's enum checks it.
  const check = useFormCheck(couponSchema, (form) => {
    const terms = termsOf(form);
    return { ...terms, discountKind: terms.discountKind.toLowerCase() };
  });
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const formEl = event.currentTarget;
    if (!(await check.check())) return;
    const terms = termsOf(new FormData(formEl));
    // Checked: the amounts the kind needs and the stock are there.
    const answer = await create.run({ input: { ...terms, claimStock: terms.claimStock ?? 0 } });
    if (answer?.template) formEl.reset();
  };
  const keys = ['name', 'discountKind', 'amountOff', 'percentOff', 'maxDiscount', 'minOrderAmount', 'validFrom', 'validUntil', 'validDays', 'claimStock'];
  return (
    <form {...check.form} onSubmit={submit} className="panel" aria-labelledby="new-coupon">
      <h2 id="new-coupon">New coupon template</h2>
      <div className="form-grid">
        <Field label="Name" name="name" {...check.field('name', errors.of('name'))}>
          {(p) => <input {...p} required maxLength={120} />}
        </Field>
        <Field label="Discount" name="discountKind" {...check.field('discountKind', errors.of('discountKind'))}>
          {(p) => (
            <select {...p} value={kind} onChange={(e) => setKind(e.target.value as DiscountKind)}>
              <option value="FIXED">Amount off</option>
              <option value="PERCENT">Percent off</option>
            </select>
          )}
        </Field>
        {kind === 'FIXED' ? (
          <Field label="Amount off" name="amountOff" {...check.field('amountOff', errors.of('amountOff'))}>
            {(p) => <input {...p} inputMode="decimal" required />}
          </Field>
        ) : (
          <>
            <Field label="Percent off" name="percentOff" {...check.field('percentOff', errors.of('percentOff'))}>
              {(p) => <input {...p} type="number" min={1} max={99} required />}
            </Field>
            <Field label="Largest discount" name="maxDiscount" {...check.field('maxDiscount', errors.of('maxDiscount'))}>
              {(p) => <input {...p} inputMode="decimal" />}
            </Field>
          </>
        )}
        <Field label="Minimum order amount" name="minOrderAmount" {...check.field('minOrderAmount', errors.of('minOrderAmount'))}>
          {(p) => <input {...p} inputMode="decimal" />}
        </Field>
        <Field label="Valid from" name="validFrom" {...check.field('validFrom', errors.of('validFrom'))}>
          {(p) => <input {...p} type="datetime-local" />}
        </Field>
        <Field label="Valid until" name="validUntil" {...check.field('validUntil', errors.of('validUntil'))}>
          {(p) => <input {...p} type="datetime-local" />}
        </Field>
        <Field label="Or valid for days after claiming" name="validDays" {...check.field('validDays', errors.of('validDays'))}>
          {(p) => <input {...p} type="number" min={1} />}
        </Field>
        <Field label="Coupons to give out" name="claimStock" {...check.field('claimStock', errors.of('claimStock'))}>
          {(p) => <input {...p} type="number" min={1} required />}
        </Field>
      </div>
      {check.unshown()}
      {create.unshown((k) => keys.includes(k))}
      <button type="submit" className="primary" disabled={create.fetching}>
        Create template
      </button>
    </form>
  );
}

function DisableTemplate({ id }: { id: number }) {
  return <ActionButton mutation={DisableCouponTemplate} variables={{ input: { templateId: id } }} payload={(d) => d.disableCouponTemplate} label="Disable" confirm="Stop giving out this coupon?" refused="Not disabled" />;
}

type CouponTemplate = MerchantCouponTemplatesQuery['merchantCouponTemplates']['items'][number];

const COUPON_COLUMNS: readonly Column<CouponTemplate>[] = [
  { header: 'Template', cell: (c) => c.name },
  {
    header: 'Discount',
    cell: (c) => (
      <>
        {c.discountKind === 'FIXED' ? <Money amount={c.amountOff ?? 0} /> : `${c.percentOff}%`}
        {c.maxDiscount ? (
          <>
            {' '}
            (at most <Money amount={c.maxDiscount} />)
          </>
        ) : null}
      </>
    ),
  },
  { header: 'Minimum', cell: (c) => <Money amount={c.minOrderAmount} /> },
  { header: 'Valid', cell: (c) => (c.validDays ? `${c.validDays} days after claiming` : `${when(c.validFrom)} – ${when(c.validUntil)}`) },
  { header: 'Left to claim', cell: (c) => c.claimStock },
  { header: 'Claimed', cell: (c) => c.claimedCount ?? 0 },
  { header: 'Used', cell: (c) => c.usedCount ?? 0 },
  { header: 'Status', cell: (c) => label(c.status) },
  { header: 'Actions', cell: (c) => (c.status === 'ACTIVE' ? <DisableTemplate id={c.id} /> : null) },
];

const COUPON_STATUSES: readonly CouponTemplateStatus[] = ['ACTIVE', 'DISABLED'];

/** The selected templates disabled, one disabling each (its own rule), naming any refused. */
function DisableSelected(selection: Selection<CouponTemplate>) {
  const disable = useAction(DisableCouponTemplate, (d) => d.disableCouponTemplate, 'Not disabled');
  const { busy, run } = useEachSelected(selection, (c) => c.name);
  const go = () => run(async (c) => Boolean((await disable.run({ input: { templateId: c.id } }))?.template), 'disabled');
  return <ConfirmButton label="Disable" question={`Stop giving out ${selection.rows.length}?`} disabled={busy} onConfirm={() => void go()} />;
}

export function CouponTemplates() {
  const [page] = usePageParam();
  const [status, setStatus] = useFilterParam('status');
  const [result, reread] = useQuery({ query: CouponTemplates_, context: useListContext('CouponTemplate'), variables: { page, pageSize: PAGE_SIZE, status: COUPON_STATUSES.find((s) => s === status) ?? null } });
  return (
    <>
      <h1>Coupon templates</h1>
      <DataTable
        label="Coupon templates"
        testId="coupon-template-table"
        result={result}
        list={(data) => data.merchantCouponTemplates}
        columns={COUPON_COLUMNS}
        rowKey={(c) => c.id}
        rowLabel={(c) => c.name}
        filters={<StateSelect label="Status" value={status} states={COUPON_STATUSES} onChange={setStatus} />}
        bulk={(selection) => <DisableSelected {...selection} />}
        reread={reread}
        empty="No coupon template yet."
        what="Loading coupon templates"
      />
      <CouponTemplateForm />
    </>
  );
}

const MerchantFlashSales = graphql(`
  query MerchantFlashSales($page: Int, $pageSize: Int) {
    merchantFlashSales(page: $page, pageSize: $pageSize) {
      page
      pageSize
      total
      items {
        id
        name
        startsAt
        endsAt
        enabled
        state
        items {
          id
          productName
          skuName
          standardPrice
          activityPrice
          reservedStock
          remainingStock
          perCustomerLimit
        }
      }
    }
  }
`);

const CreateFlashSale = graphql(`
  mutation ConsoleCreateFlashSale($input: CreateFlashSaleInput!) {
    createFlashSale(input: $input) {
      flashSale {
        id
        name
        enabled
      }
      userErrors {
        ...UserErrorFields
      }
    }
  }
`);
const EnableFlashSale = graphql(`
  mutation ConsoleEnableFlashSale($input: EnableFlashSaleInput!) {
    enableFlashSale(input: $input) {
      flashSale {
        id
        enabled
      }
      userErrors {
        ...UserErrorFields
      }
    }
  }
`);
const DisableFlashSale = graphql(`
  mutation ConsoleDisableFlashSale($input: DisableFlashSaleInput!) {
    disableFlashSale(input: $input) {
      flashSale {
        id
        enabled
      }
      userErrors {
        ...UserErrorFields
      }
    }
  }
`);

function FlashSaleForm() {
  const create = useAction(CreateFlashSale, (d) => d.createFlashSale, 'Not created');
  const [rows, setRows] = useState([1]);
  const [created, setCreated] = useState<string | null>(null);
  const errors = create.errors;
  const inputOf = (form: FormData) => ({
    name: text(form.get('name')),
    startsAt: optionalInstant(form.get('startsAt')),
    endsAt: optionalInstant(form.get('endsAt')),
    items: rows.map((_, i) => ({
      skuId: int(form.get(`items.${i}.skuId`)),
      activityPrice: requiredMinor(form.get(`items.${i}.activityPrice`)),
      reservedStock: int(form.get(`items.${i}.reservedStock`)),
      perCustomerLimit: int(form.get(`items.${i}.perCustomerLimit`)),
    })),
  });
  // The schema the service parses a new session with: each field is checked as it is typed.
  const check = useFormCheck(sessionSchema, inputOf);
  const message = (key: string) => check.message(key, errors.of(key));
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const formEl = event.currentTarget;
    const input = await check.check();
    if (!input || !input.startsAt || !input.endsAt) return;
    const answer = await create.run({
      input: { ...input, startsAt: input.startsAt, endsAt: input.endsAt, items: input.items.map((item) => ({ ...item, activityPrice: item.activityPrice ?? 0 })) },
    });
    const sale = answer?.flashSale;
    if (sale) {
      setCreated(sale.name);
      formEl.reset();
    }
  };
  const rowKeys = (i: number) => ['skuId', 'activityPrice', 'reservedStock', 'perCustomerLimit'].map((k) => `items.${i}.${k}`);
  const now = new Date();
  return (
    <form {...check.form} onSubmit={submit} className="panel" aria-labelledby="new-flash">
      <h2 id="new-flash">New flash sale session</h2>
      <p className="meta">A new session starts disabled: enable it in the table to put its prices on the storefront (the server refuses one that overlaps another enabled session of the same SKU).</p>
      <div className="form-grid">
        <Field label="Session name" name="name" {...check.field('name', errors.of('name'))}>
          {(p) => <input {...p} required maxLength={120} />}
        </Field>
        <Field label="Starts" name="startsAt" {...check.field('startsAt', errors.of('startsAt'))}>
          {(p) => <input {...p} type="datetime-local" required defaultValue={toLocalInput(now)} />}
        </Field>
        <Field label="Ends" name="endsAt" {...check.field('endsAt', errors.of('endsAt'))}>
          {(p) => <input {...p} type="datetime-local" required defaultValue={toLocalInput(new Date(now.getTime() + 2 * 3600_000))} />}
        </Field>
      </div>
      <table className="grid">
        <thead>
          <tr>
            <th scope="col">SKU</th>
            <th scope="col">Activity price</th>
            <th scope="col">Activity stock</th>
            <th scope="col">Limit per customer</th>
            <th scope="col">
              <span className="visually-hidden">Remove</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r, i) => (
            <tr key={r}>
              <td>
                <SkuPicker id={`sku-${r}`} name={`items.${i}.skuId`} label={`Item ${i + 1} SKU`} invalid={Boolean(message(`items.${i}.skuId`))} />
                <ItemError message={message(`items.${i}.skuId`)} />
              </td>
              <td>
                <input name={`items.${i}.activityPrice`} aria-label={`Item ${i + 1} activity price`} inputMode="decimal" required aria-invalid={Boolean(message(`items.${i}.activityPrice`))} />
                <ItemError message={message(`items.${i}.activityPrice`)} />
              </td>
              <td>
                <input name={`items.${i}.reservedStock`} aria-label={`Item ${i + 1} activity stock`} type="number" min={1} required aria-invalid={Boolean(message(`items.${i}.reservedStock`))} />
                <ItemError message={message(`items.${i}.reservedStock`)} />
              </td>
              <td>
                <input name={`items.${i}.perCustomerLimit`} aria-label={`Item ${i + 1} limit per customer`} type="number" min={1} required defaultValue={1} aria-invalid={Boolean(message(`items.${i}.perCustomerLimit`))} />
                <ItemError message={message(`items.${i}.perCustomerLimit`)} />
              </td>
              <td>
                <button type="button" aria-label={`Remove item ${i + 1}`} disabled={rows.length === 1} onClick={() => setRows((all) => all.filter((x) => x !== r))}>
                  Remove
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <button type="button" onClick={() => setRows((all) => [...all, Math.max(...all) + 1])}>
        Add item
      </button>
      {check.unshown()}
      {create.unshown((k) => ['name', 'startsAt', 'endsAt'].includes(k) || rows.some((_, i) => rowKeys(i).includes(k)))}
      <p className="row-actions">
        <button type="submit" className="primary" disabled={create.fetching}>
          Create session
        </button>
        {created ? <span role="status">Created “{created}”.</span> : null}
      </p>
    </form>
  );
}

const ItemError = ({ message }: { message: string | undefined }) =>
  message ? (
    <p className="field-message" role="alert">
      {message}
    </p>
  ) : null;

/** The session's state with the switch of its prices: optimistic, the server's answer (or an overlap refusal) then stands. */
function FlashSaleToggle({ sale }: { sale: { id: number; enabled: boolean; state: FlashSaleState } }) {
  const enable = useAction(EnableFlashSale, (d) => d.enableFlashSale, 'Not enabled');
  const disable = useAction(DisableFlashSale, (d) => d.disableFlashSale, 'Not disabled');
  const input = { input: { flashSaleId: sale.id } };
  const ended = sale.state === 'ENDED';
  return (
    <OptimisticSwitch
      value={sale.enabled}
      text={(enabled) => (
        <span>
          {label(sale.state)}
          {enabled ? '' : ' (disabled)'}
        </span>
      )}
      busy={enable.fetching || disable.fetching}
      action={(enabled) =>
        ended
          ? null
          : enabled
            ? { to: false, label: 'Disable', confirm: "Stop this session's prices?", run: async () => (await disable.run(input))?.flashSale?.enabled ?? null }
            : { to: true, label: 'Enable', run: async () => (await enable.run(input))?.flashSale?.enabled ?? null }
      }
    >
      {enable.refusal}
      {disable.refusal}
    </OptimisticSwitch>
  );
}

type FlashSale = MerchantFlashSalesQuery['merchantFlashSales']['items'][number];

const FLASH_SALE_COLUMNS: readonly Column<FlashSale>[] = [
  { header: 'Session', cell: (s) => s.name },
  { header: 'Window', cell: (s) => `${when(s.startsAt)} – ${when(s.endsAt)}` },
  { header: 'State', cell: (s) => <FlashSaleToggle sale={s} /> },
  {
    header: 'Items',
    cell: (s) => (
      <ul>
        {s.items.map((i) => (
          <li key={i.id}>
            {i.productName} ({i.skuName}): <Money amount={i.activityPrice} /> instead of <Money amount={i.standardPrice} />, {i.remainingStock}/{i.reservedStock} left, at most{' '}
            {i.perCustomerLimit} each
          </li>
        ))}
      </ul>
    ),
  },
];

export function FlashSales() {
  const [page] = usePageParam();
  const [result] = useQuery({ query: MerchantFlashSales, context: useListContext('FlashSale'), variables: { page, pageSize: PAGE_SIZE } });
  return (
    <>
      <h1>Flash sales</h1>
      <DataTable
        label="Flash sales"
        testId="flash-sale-table"
        result={result}
        list={(data) => data.merchantFlashSales}
        columns={FLASH_SALE_COLUMNS}
        rowKey={(s) => s.id}
        empty="No flash sale yet."
        what="Loading flash sales"
      />
      <FlashSaleForm />
    </>
  );
}

const MerchantGroupBuys = graphql(`
  query MerchantGroupBuys($page: Int, $pageSize: Int) {
    merchantGroupBuys(page: $page, pageSize: $pageSize) {
      page
      pageSize
      total
      items {
        id
        productName
        skuName
        standardPrice
        groupPrice
        capacity
        lifetimeMinutes
        startsAt
        endsAt
        active
        groupCounts {
          open
          successful
          expired
          cancelled
        }
      }
    }
  }
`);

const CreateGroupBuy = graphql(`
  mutation ConsoleCreateGroupBuy($input: CreateGroupBuyInput!) {
    createGroupBuy(input: $input) {
      activity {
        id
      }
      userErrors {
        ...UserErrorFields
      }
    }
  }
`);

const DeleteGroupBuy = graphql(`
  mutation ConsoleDeleteGroupBuy($input: DeleteGroupBuyInput!) {
    deleteGroupBuy(input: $input) {
      deletedActivityId
      userErrors {
        ...UserErrorFields
      }
    }
  }
`);

function GroupBuyForm() {
  const create = useAction(CreateGroupBuy, (d) => d.createGroupBuy, 'Not created');
  const errors = create.errors;
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const formEl = event.currentTarget;
    const form = new FormData(formEl);
    const answer = await create.run({
      input: {
        skuId: int(form.get('skuId')),
        groupPrice: toMinor(form.get('groupPrice')),
        capacity: int(form.get('capacity')),
        lifetimeMinutes: int(form.get('lifetimeMinutes')),
        startsAt: toInstant(form.get('startsAt')),
        endsAt: toInstant(form.get('endsAt')),
      },
    });
    if (answer?.activity) formEl.reset();
  };
  const keys = ['skuId', 'groupPrice', 'capacity', 'lifetimeMinutes', 'startsAt', 'endsAt'];
  const now = new Date();
  return (
    <form onSubmit={submit} className="panel" aria-labelledby="new-group" noValidate>
      <h2 id="new-group">New group-buy activity</h2>
      <div className="form-grid">
        <Field label="SKU" name="skuId" error={errors.of('skuId')}>
          {(p) => <SkuPicker id={p.id} name={p.name} label="SKU" invalid={p['aria-invalid']} />}
        </Field>
        <Field label="Group price" name="groupPrice" error={errors.of('groupPrice')}>
          {(p) => <input {...p} inputMode="decimal" required />}
        </Field>
        <Field label="People per group" name="capacity" error={errors.of('capacity')}>
          {(p) => <input {...p} type="number" min={2} required />}
        </Field>
        <Field label="Minutes a group stays open" name="lifetimeMinutes" error={errors.of('lifetimeMinutes')}>
          {(p) => <input {...p} type="number" min={1} required defaultValue={60} />}
        </Field>
        <Field label="Starts" name="startsAt" error={errors.of('startsAt')}>
          {(p) => <input {...p} type="datetime-local" required defaultValue={toLocalInput(now)} />}
        </Field>
        <Field label="Ends" name="endsAt" error={errors.of('endsAt')}>
          {(p) => <input {...p} type="datetime-local" required defaultValue={toLocalInput(new Date(now.getTime() + 7 * 86400_000))} />}
        </Field>
      </div>
      {create.unshown((k) => keys.includes(k))}
      <button type="submit" className="primary" disabled={create.fetching}>
        Create activity
      </button>
    </form>
  );
}

function DeleteActivity({ id }: { id: number }) {
  return <ActionButton mutation={DeleteGroupBuy} variables={{ input: { activityId: id } }} payload={(d) => d.deleteGroupBuy} label="Delete" confirm="Delete this activity?" refused="Not deleted" invalidates={['MerchantGroupBuy']} />;
}

type GroupBuy = MerchantGroupBuysQuery['merchantGroupBuys']['items'][number];

const GROUP_BUY_COLUMNS: readonly Column<GroupBuy>[] = [
  { header: 'SKU', cell: (g) => `${g.productName} (${g.skuName})` },
  {
    header: 'Price',
    cell: (g) => (
      <>
        <Money amount={g.groupPrice} /> instead of <Money amount={g.standardPrice} />
      </>
    ),
  },
  { header: 'Group', cell: (g) => `${g.capacity} people, ${g.lifetimeMinutes} min` },
  { header: 'Window', cell: (g) => `${when(g.startsAt)} – ${when(g.endsAt)} ${g.active ? '(running)' : ''}` },
  { header: 'Groups (open / done / expired / cancelled)', cell: (g) => `${g.groupCounts.open} / ${g.groupCounts.successful} / ${g.groupCounts.expired} / ${g.groupCounts.cancelled}` },
  { header: 'Actions', cell: (g) => <DeleteActivity id={g.id} /> },
];

export function GroupBuys() {
  const [page] = usePageParam();
  const [result] = useQuery({ query: MerchantGroupBuys, context: useListContext('MerchantGroupBuy'), variables: { page, pageSize: PAGE_SIZE } });
  return (
    <>
      <h1>Group buys</h1>
      <DataTable
        label="Group buys"
        testId="group-buy-table"
        result={result}
        list={(data) => data.merchantGroupBuys}
        columns={GROUP_BUY_COLUMNS}
        rowKey={(g) => g.id}
        empty="No group-buy activity yet."
        what="Loading group buys"
      />
      <GroupBuyForm />
    </>
  );
}
