import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { useQuery } from 'urql';
import { graphql } from '../gql';
import type { AdminShopsQuery, ConsoleShopProfileQuery, NameSort, ShopStatus } from '../gql/graphql';
import { QueryResult } from '../../ui/query-result';
import { usePermissions } from '../console-shell';
import { ActionButton, Field, StateSelect, int, label, optionalText, text, usePageParam, useFilterParams, useListContext, useAction, when } from '../kit';
import { DataTable, useSortOf, type Column } from '../data-table';
import { PictureField } from '../picture-field';
import { lazySchema, useFormCheck } from '../form-check';

const profileSchema = lazySchema(() => import('../../../../src/services/catalog/shop-profile.inputs').then((m) => m.ProfileInput));

const PAGE_SIZE = 20;

const AdminShops = graphql(`
  query AdminShops($q: String, $status: ShopStatus, $sort: NameSort, $page: Int, $pageSize: Int) {
    adminShops(q: $q, status: $status, sort: $sort, page: $page, pageSize: $pageSize) {
      page
      pageSize
      total
      items {
        id
        slug
        name
        status
        statusReason
        statusChangedAt
        paidOrders
      }
    }
  }
`);

/** A shop's profile, read when the profile is opened for editing (the storefront's shop: an active one). */
const ShopProfileQuery = graphql(`
  query ConsoleShopProfile($slug: String!) {
    shop(slug: $slug) {
      id
      profile {
        shopId
        logoUrl
        description
        bannerUrl
        contactPhone
        address
        updatedAt
      }
    }
  }
`);

const PutShopProfile = graphql(`
  mutation ConsolePutShopProfile($input: PutShopProfileInput!) {
    putShopProfile(input: $input) {
      profile {
        shopId
        logoUrl
        description
        bannerUrl
        contactPhone
        address
        updatedAt
      }
      userErrors {
        ...UserErrorFields
      }
    }
  }
`);

/** What each shop state mutation answers: the state the shop is in now. */
export const ShopStateFields = graphql(`
  fragment ShopStateFields on ShopState {
    shopId
    status
    reason
    changedAt
  }
`);

const SuspendShop = graphql(`
  mutation ConsoleSuspendShop($input: SuspendShopInput!) {
    suspendShop(input: $input) {
      shopState {
        ...ShopStateFields
      }
      userErrors {
        ...UserErrorFields
      }
    }
  }
`);

const ReinstateShop = graphql(`
  mutation ConsoleReinstateShop($input: ReinstateShopInput!) {
    reinstateShop(input: $input) {
      shopState {
        ...ShopStateFields
      }
      userErrors {
        ...UserErrorFields
      }
    }
  }
`);

const CloseShop = graphql(`
  mutation ConsoleCloseShop($input: CloseShopInput!) {
    closeShop(input: $input) {
      shopState {
        ...ShopStateFields
      }
      userErrors {
        ...UserErrorFields
      }
    }
  }
`);

type Shop = AdminShopsQuery['adminShops']['items'][number];
type Profile = NonNullable<NonNullable<ConsoleShopProfileQuery['shop']>['profile']>;

const STATUSES: readonly ShopStatus[] = ['ACTIVE', 'SUSPENDED', 'CLOSED'];
/** The orders the platform's shop list reads in (index-backed: by id or by name). */
const SORTS: readonly NameSort[] = ['NEWEST', 'OLDEST', 'NAME_ASC', 'NAME_DESC'];

/** A shop state mutation answers a `ShopState`, not the listed `AdminShop`: the list is read again. */
const RELISTS = ['AdminShop'];

function ProfileForm({ shop, profile: p, onDone }: { shop: Shop; profile: Profile | null; onDone: () => void }) {
  const put = useAction(PutShopProfile, (d) => d.putShopProfile, 'Not saved');
  const errors = put.errors;
  const profileOf = (form: FormData) => ({
    logoUrl: text(form.get('logoUrl')),
    description: optionalText(form.get('description')),
    bannerUrl: optionalText(form.get('bannerUrl')),
    contactPhone: optionalText(form.get('contactPhone')),
    address: optionalText(form.get('address')),
  });
  // The profile by the schema the server parses it with (shop-profile.inputs.ts), as it is typed.
  const check = useFormCheck(profileSchema, profileOf);
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const profile = await check.check();
    if (!profile) return;
    const answer = await put.run({ input: { shopId: int(String(shop.id)), ...profile } });
    if (answer?.profile) onDone();
  };
  const fields = [
    ['contactPhone', 'Contact phone', p?.contactPhone],
    ['address', 'Address', p?.address],
  ] as const;
  return (
    <form {...check.form} onSubmit={submit} className="panel" aria-label={`Profile of ${shop.name}`}>
      <div className="form-grid">
        <PictureField label="Logo" name="logoUrl" fieldId={`shop-${shop.id}-logoUrl`} defaultValue={p?.logoUrl} library="platform" {...check.field('logoUrl', errors.of('logoUrl'))} />
        <PictureField label="Banner" name="bannerUrl" fieldId={`shop-${shop.id}-bannerUrl`} defaultValue={p?.bannerUrl} library="platform" {...check.field('bannerUrl', errors.of('bannerUrl'))} />
        {fields.map(([name, label, value]) => (
          <Field key={name} label={label} name={`shop-${shop.id}-${name}`} {...check.field(name, errors.of(name))}>
            {(props) => <input {...props} name={name} defaultValue={value ?? ''} />}
          </Field>
        ))}
      </div>
      <Field label="Description" name={`shop-${shop.id}-description`} {...check.field('description', errors.of('description'))}>
        {(props) => <textarea {...props} name="description" rows={3} defaultValue={p?.description ?? ''} />}
      </Field>
      {check.unshown()}
      {put.unshown((k) => ['logoUrl', 'bannerUrl', 'contactPhone', 'address', 'description'].includes(k))}
      <button type="submit" className="primary" disabled={put.fetching}>
        Save profile
      </button>
    </form>
  );
}

/** The profile as the storefront holds it, then its form. */
function ProfileEditor({ shop, onDone }: { shop: Shop; onDone: () => void }) {
  const [result] = useQuery({ query: ShopProfileQuery, variables: { slug: shop.slug }, requestPolicy: 'network-only' });
  return (
    <QueryResult result={result} what="Loading the profile">
      {({ shop: found }) => <ProfileForm shop={shop} profile={found?.profile ?? null} onDone={onDone} />}
    </QueryResult>
  );
}

/** A suspension needs a reason (the shop is told it): the server refuses a blank one on its field. */
function SuspendForm({ shop }: { shop: Shop }) {
  const suspend = useAction(SuspendShop, (d) => d.suspendShop, 'Not suspended', RELISTS);
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    await suspend.run({ input: { shopId: shop.id, reason: text(new FormData(event.currentTarget).get('reason')) } });
  };
  return (
    <form onSubmit={submit} aria-label={`Suspend ${shop.name}`} noValidate>
      <Field label="Reason for the suspension" name={`shop-${shop.id}-suspend-reason`} error={suspend.errors.of('reason')}>
        {(props) => <input {...props} name="reason" maxLength={500} />}
      </Field>
      {suspend.unshown((k) => k === 'reason')}
      <button type="submit" disabled={suspend.fetching}>
        Suspend
      </button>
    </form>
  );
}

/** What the platform may do to the shop in its state (closed is final). */
function StateActions({ shop }: { shop: Shop }) {
  if (shop.status === 'CLOSED') return null;
  const input = { input: { shopId: shop.id } };
  return (
    <>
      {shop.status === 'ACTIVE' ? <SuspendForm shop={shop} /> : null}
      {shop.status === 'SUSPENDED' ? <ActionButton mutation={ReinstateShop} variables={input} payload={(d) => d.reinstateShop} label="Reinstate" refused="Not reinstated" invalidates={RELISTS} /> : null}
      <ActionButton
        mutation={CloseShop}
        variables={input}
        payload={(d) => d.closeShop}
        label="Close"
        confirm={`Close ${shop.name} for good?`}
        refused="Not closed"
        invalidates={RELISTS}
      />
    </>
  );
}

function stateText(shop: Shop): string {
  const since = shop.statusChangedAt ? ` since ${when(shop.statusChangedAt)}` : '';
  if (shop.status === 'SUSPENDED') return `Suspended${since}: ${shop.statusReason ?? ''}`;
  return `${label(shop.status)}${since}`;
}

/** What the platform may do to a shop from its row: its state (by permission) and its profile, opened in place. */
function ShopActions({ shop }: { shop: Shop }) {
  const [editing, setEditing] = useState(false);
  const permissions = usePermissions();
  return (
    <>
      {permissions.includes('PLATFORM_SHOPS_MANAGE') ? <StateActions shop={shop} /> : null}
      {shop.status === 'ACTIVE' && permissions.includes('PLATFORM_CONTENT_MANAGE') ? (
        <>
          <button type="button" onClick={() => setEditing(!editing)} aria-expanded={editing}>
            {editing ? 'Close the profile' : 'Edit profile'}
          </button>
          {editing ? <ProfileEditor shop={shop} onDone={() => setEditing(false)} /> : null}
        </>
      ) : null}
    </>
  );
}

const SHOP_COLUMNS: readonly Column<Shop>[] = [
  { header: 'Shop', sort: { asc: 'NAME_ASC', desc: 'NAME_DESC' }, cell: (shop) => (shop.status === 'ACTIVE' ? <Link to={`/shops/${shop.slug}`}>{shop.name}</Link> : shop.name) },
  { header: 'State', cell: (shop) => <span data-testid="shop-state">{stateText(shop)}</span> },
  { header: 'Paid orders', cell: (shop) => shop.paidOrders },
  { header: 'Actions', cell: (shop) => <ShopActions shop={shop} /> },
];

/**
 * Every shop in every state, newest first, by part of its name or slug and by state: a platform
 * admin suspends an active one with a reason, reinstates a suspended one, closes either (refused,
 * with the reason, while orders, refunds or money are open); an active shop's profile is edited here.
 */
export function ShopProfiles() {
  const [page] = usePageParam();
  const [{ q, state }, setFilters] = useFilterParams(['q', 'state']);
  const sort = useSortOf(SORTS);
  const filter = STATUSES.find((s) => s === state) ?? null;
  const [result] = useQuery({ query: AdminShops, context: useListContext('AdminShop'), variables: { q: q || null, status: filter, sort, page, pageSize: PAGE_SIZE } });
  return (
    <>
      <h1>Shops</h1>
      <DataTable
        label="Shops"
        result={result}
        list={(data) => data.adminShops}
        columns={SHOP_COLUMNS}
        rowKey={(shop) => shop.id}
        rowProps={() => ({ 'data-testid': 'shop-row' })}
        search={{ label: 'Name or address' }}
        filters={<StateSelect label="State" value={filter ?? ''} states={STATUSES} onChange={(value) => setFilters({ state: value })} />}
        empty="No shop matches."
        what="Loading shops"
      />
    </>
  );
}
