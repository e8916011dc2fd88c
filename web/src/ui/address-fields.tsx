import { useQuery } from 'urql';
import { graphql } from '../gql';
import type { RegionCode } from '../gql/graphql';
import { regionLabel } from './region-label';

/** Every region the mall ships to (the server's list: 31 mainland provinces, Hong Kong, Macau, Taiwan). */
const ShippingRegions = graphql(`
  query ShippingRegions {
    regions {
      code
      name
      localName
    }
  }
`);

export interface Address {
  recipient: string;
  phone: string;
  region: RegionCode;
  address: string;
}

/**
 * The region a form sent: one of the options, which are the schema's own values, or null while the
 * shopper has chosen none (no region is chosen for them: a wrong one would price the freight wrong and
 * send the parcel to the wrong province).
 */
export const regionOf = (value: FormDataEntryValue | null): RegionCode | null => (value === null || value === '' ? null : (String(value) as RegionCode));

/**
 * The shipping address inputs, read back with `readAddress` from the form's data. `initial` fills
 * them (a saved address); give the element a `key` per address so a new choice refills them.
 */
export function AddressFields({ legend = 'Shipping address', initial }: { legend?: string; initial?: Address }) {
  const [regions] = useQuery({ query: ShippingRegions });
  const region = initial?.region ?? '';
  const options = regions.data?.regions ?? [];
  return (
    <fieldset className="address">
      <legend>{legend}</legend>
      <label>
        Recipient <input name="recipient" required maxLength={60} autoComplete="name" defaultValue={initial?.recipient} />
      </label>
      <label>
        Phone <input name="phone" required maxLength={40} type="tel" autoComplete="tel" defaultValue={initial?.phone} />
      </label>
      <label>
        Region{' '}
        <select name="region" required defaultValue={region} key={options.length}>
          <option value="" disabled>
            Choose a region
          </option>
          {options.length === 0 && region !== '' ? <option value={region}>{regionLabel(region)}</option> : null}
          {options.map((r) => (
            <option key={r.code} value={r.code}>
              {r.name} {r.localName}
            </option>
          ))}
        </select>
      </label>
      <label>
        Address <input name="address" required maxLength={300} autoComplete="street-address" defaultValue={initial?.address} />
      </label>
    </fieldset>
  );
}

/**
 * The address a form holds. The region select is `required`, so the browser sends none without one;
 * were it empty anyway, the server refuses it on its field.
 */
export function readAddress(form: FormData): Address {
  const text = (name: string) => String(form.get(name) ?? '').trim();
  return { recipient: text('recipient'), phone: text('phone'), region: text('region') as RegionCode, address: text('address') };
}
