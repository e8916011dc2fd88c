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

export const DEFAULT_REGION: RegionCode = 'CN_SH';


/** The region a form sent: one of the options, which are the schema's own values. */
export const regionOf = (value: FormDataEntryValue | null): RegionCode => (value === null || value === '' ? DEFAULT_REGION : (String(value) as RegionCode));

/**
 * The shipping address inputs, read back with `readAddress` from the form's data. `initial` fills
 * them (a saved address); give the element a `key` per address so a new choice refills them.
 */
export function AddressFields({ legend = 'Shipping address', initial }: { legend?: string; initial?: Address }) {
  const [regions] = useQuery({ query: ShippingRegions });
  const region = initial?.region ?? DEFAULT_REGION;
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
          {options.length === 0 ? <option value={region}>{regionLabel(region)}</option> : null}
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

export function readAddress(form: FormData): Address {
  const text = (name: string) => String(form.get(name) ?? '').trim();
  return { recipient: text('recipient'), phone: text('phone'), region: regionOf(form.get('region')), address: text('address') };
}
