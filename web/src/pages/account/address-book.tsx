import { useState, type FormEvent } from 'react';
import { useMutation, useQuery } from 'urql';
import { graphql } from '../../gql';
import type { SavedAddressFieldsFragment } from '../../gql/graphql';
import { refusalOf, type ApiRefusal } from '../../api/errors';
import { AddressFields, readAddress } from '../../ui/address-fields';
import { regionLabel } from '../../ui/region-label';
import { ErrorNotice } from '../../ui/query-state';

export const SavedAddressFields = graphql(`
  fragment SavedAddressFields on SavedAddress {
    id
    recipient
    phone
    region
    address
    isDefault
  }
`);

const MyAddressBook = graphql(`
  query MyAddressBook {
    myAddresses {
      ...SavedAddressFields
    }
  }
`);

const AddAddress = graphql(`
  mutation AddAddressToBook($input: AddAddressInput!) {
    addAddress(input: $input) {
      address {
        ...SavedAddressFields
      }
      userErrors {
        ...UserErrorFields
      }
    }
  }
`);

const UpdateAddress = graphql(`
  mutation UpdateAddressInBook($input: UpdateAddressInput!) {
    updateAddress(input: $input) {
      address {
        ...SavedAddressFields
      }
      userErrors {
        ...UserErrorFields
      }
    }
  }
`);

const SetDefaultAddress = graphql(`
  mutation SetDefaultAddressInBook($input: SetDefaultAddressInput!) {
    setDefaultAddress(input: $input) {
      address {
        ...SavedAddressFields
      }
      userErrors {
        ...UserErrorFields
      }
    }
  }
`);

const DeleteAddress = graphql(`
  mutation DeleteAddressFromBook($input: DeleteAddressInput!) {
    deleteAddress(input: $input) {
      addressId
      userErrors {
        ...UserErrorFields
      }
    }
  }
`);

/** A new address, or the fields of a saved one changed; `onSaved` once the server kept it. */
function AddressForm({ address, onSaved, onCancel }: { address?: SavedAddressFieldsFragment; onSaved: () => void; onCancel: () => void }) {
  const [adding, add] = useMutation(AddAddress);
  const [updating, update] = useMutation(UpdateAddress);
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const fields = readAddress(form);
    if (address) {
      const result = await update({ input: { addressId: address.id, ...fields } });
      if (result.data?.updateAddress.address) onSaved();
    } else {
      const result = await add({ input: { ...fields, isDefault: form.get('default') === 'on' } });
      if (result.data?.addAddress.address) onSaved();
    }
  };
  const refused = address ? refusalOf(updating.error, updating.data?.updateAddress) : refusalOf(adding.error, adding.data?.addAddress);
  return (
    <form onSubmit={submit} aria-label={address ? `Change the address for ${address.recipient}` : 'A new address'} className="address-form">
      <AddressFields legend={address ? 'Change the address' : 'A new address'} initial={address} />
      {address ? null : (
        <label className="inline-check">
          <input type="checkbox" name="default" /> Make it my default address
        </label>
      )}
      {refused ? <ErrorNotice error={refused} title="Address not saved" /> : null}
      <button type="submit" className="primary" disabled={adding.fetching || updating.fetching}>
        Save address
      </button>{' '}
      <button type="button" onClick={onCancel}>
        Cancel
      </button>
    </form>
  );
}

/** One saved address with what can be done to it: make it the default, change it, delete it. */
function SavedAddressLine({ address, onEdit, onChanged }: { address: SavedAddressFieldsFragment; onEdit: () => void; onChanged: () => void }) {
  const [defaulting, makeDefault] = useMutation(SetDefaultAddress);
  const [deleting, remove] = useMutation(DeleteAddress);
  const [refused, setRefused] = useState<ApiRefusal | null>(null);
  const act = async (run: () => Promise<{ refusal: ApiRefusal | null }>) => {
    const { refusal } = await run();
    setRefused(refusal);
    if (!refusal) onChanged();
  };
  const setDefault = () =>
    act(async () => {
      const result = await makeDefault({ input: { addressId: address.id } });
      return { refusal: refusalOf(result.error, result.data?.setDefaultAddress) };
    });
  const del = () =>
    act(async () => {
      const result = await remove({ input: { addressId: address.id } });
      return { refusal: refusalOf(result.error, result.data?.deleteAddress) };
    });
  return (
    <>
      <p>
        <strong>{address.recipient}</strong> {address.phone} · {address.address} ({regionLabel(address.region)})
        {address.isDefault ? <span className="badge">Default</span> : null}
      </p>
      <p className="actions">
        {address.isDefault ? null : (
          <button type="button" onClick={() => void setDefault()} disabled={defaulting.fetching}>
            Make default
          </button>
        )}{' '}
        <button type="button" onClick={onEdit}>
          Change
        </button>{' '}
        <button type="button" onClick={() => void del()} disabled={deleting.fetching}>
          Delete
        </button>
      </p>
      {refused ? <ErrorNotice error={refused} title="Not changed" /> : null}
    </>
  );
}

/**
 * The customer's address book under the account (checkout offers the same addresses): the default
 * first, each changed, deleted or made the default here, and new ones added. Read again after every
 * change: a delete or a new default moves the others.
 */
export function AddressBookSection() {
  const [result, reload] = useQuery({ query: MyAddressBook, requestPolicy: 'cache-and-network' });
  const [editing, setEditing] = useState<number | 'new' | null>(null);
  const changed = () => {
    setEditing(null);
    reload({ requestPolicy: 'network-only' });
  };
  const addresses = result.data?.myAddresses ?? [];
  return (
    <section aria-labelledby="address-book-heading" id="addresses">
      <h2 id="address-book-heading">Addresses</h2>
      {result.error ? <ErrorNotice error={result.error} title="Your addresses could not be read" /> : null}
      {result.data && addresses.length === 0 ? <p className="empty">No saved address yet: add one here, or save the one you ship to at checkout.</p> : null}
      <ul className="address-book">
        {addresses.map((a) => (
          <li key={a.id} data-testid="saved-address">
            {editing === a.id ? (
              <AddressForm address={a} onSaved={changed} onCancel={() => setEditing(null)} />
            ) : (
              <SavedAddressLine address={a} onEdit={() => setEditing(a.id)} onChanged={changed} />
            )}
          </li>
        ))}
      </ul>
      {editing === 'new' ? (
        <AddressForm onSaved={changed} onCancel={() => setEditing(null)} />
      ) : (
        <button type="button" onClick={() => setEditing('new')}>
          Add an address
        </button>
      )}
    </section>
  );
}
