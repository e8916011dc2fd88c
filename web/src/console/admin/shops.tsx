import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { useQuery } from 'urql';
import { graphql } from '../gql';
import type { AdminShopsQuery } from '../gql/graphql';
import { QueryResult } from '../../ui/query-result';
import { Field, Pager, int, optionalText, text, usePageParam, useListContext, useAction } from '../kit';

const PAGE_SIZE = 20;

const AdminShops = graphql(`
  query AdminShops($page: Int, $pageSize: Int) {
    shops(page: $page, pageSize: $pageSize) {
      page
      pageSize
      total
      items {
        id
        slug
        name
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

type Shop = AdminShopsQuery['shops']['items'][number];

function ProfileForm({ shop, onDone }: { shop: Shop; onDone: () => void }) {
  const put = useAction(PutShopProfile, (d) => d.putShopProfile, 'Not saved');
  const errors = put.errors;
  const p = shop.profile;
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const answer = await put.run({
      input: {
        shopId: int(String(shop.id)),
        logoUrl: text(form.get('logoUrl')),
        description: optionalText(form.get('description')),
        bannerUrl: optionalText(form.get('bannerUrl')),
        contactPhone: optionalText(form.get('contactPhone')),
        address: optionalText(form.get('address')),
      },
    });
    if (answer?.profile) onDone();
  };
  const fields = [
    ['logoUrl', 'Logo URL', p?.logoUrl],
    ['bannerUrl', 'Banner URL', p?.bannerUrl],
    ['contactPhone', 'Contact phone', p?.contactPhone],
    ['address', 'Address', p?.address],
  ] as const;
  return (
    <form onSubmit={submit} className="panel" aria-label={`Profile of ${shop.name}`} noValidate>
      <div className="form-grid">
        {fields.map(([name, label, value]) => (
          <Field key={name} label={label} name={`shop-${shop.id}-${name}`} error={errors.of(name)}>
            {(props) => <input {...props} name={name} defaultValue={value ?? ''} />}
          </Field>
        ))}
      </div>
      <Field label="Description" name={`shop-${shop.id}-description`} error={errors.of('description')}>
        {(props) => <textarea {...props} name="description" rows={3} defaultValue={p?.description ?? ''} />}
      </Field>
      {put.unshown((k) => ['logoUrl', 'bannerUrl', 'contactPhone', 'address', 'description'].includes(k))}
      <button type="submit" className="primary" disabled={put.fetching}>
        Save profile
      </button>
    </form>
  );
}

function ShopRow({ shop }: { shop: Shop }) {
  const [editing, setEditing] = useState(false);
  return (
    <tr>
      <td>
        <Link to={`/shops/${shop.slug}`}>{shop.name}</Link>
      </td>
      <td>{shop.profile ? (shop.profile.description ?? 'Profile without description') : <em>No profile yet</em>}</td>
      <td>{shop.profile?.contactPhone ?? '—'}</td>
      <td>
        <button type="button" onClick={() => setEditing(!editing)} aria-expanded={editing}>
          {editing ? 'Close' : 'Edit profile'}
        </button>
        {editing ? <ProfileForm shop={shop} onDone={() => setEditing(false)} /> : null}
      </td>
    </tr>
  );
}

export function ShopProfiles() {
  const [page, setPage] = usePageParam();
  const [result] = useQuery({ query: AdminShops, context: useListContext('ShopProfile'), variables: { page, pageSize: PAGE_SIZE } });
  return (
    <>
      <h1>Shop profiles</h1>
      <QueryResult result={result} what="Loading shops">
        {({ shops }) => (
          <>
            <table className="grid">
              <thead>
                <tr>
                  <th scope="col">Shop</th>
                  <th scope="col">Profile</th>
                  <th scope="col">Phone</th>
                  <th scope="col">Actions</th>
                </tr>
              </thead>
              <tbody>
                {shops.items.map((s) => (
                  <ShopRow key={s.id} shop={s} />
                ))}
              </tbody>
            </table>
            <Pager page={shops.page} pageSize={shops.pageSize} total={shops.total} onPage={setPage} />
          </>
        )}
      </QueryResult>
    </>
  );
}
