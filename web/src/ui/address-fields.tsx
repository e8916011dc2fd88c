/** A few region codes of the freight templates (ISO 3166-2 style); the server prices freight from them. */
const REGIONS = [
  ['CN-BJ', 'Beijing'],
  ['CN-SH', 'Shanghai'],
  ['CN-GD', 'Guangdong'],
  ['CN-ZJ', 'Zhejiang'],
  ['CN-JS', 'Jiangsu'],
  ['CN-SC', 'Sichuan'],
  ['CN-XJ', 'Xinjiang'],
  ['CN-XZ', 'Tibet'],
] as const;

export interface Address {
  recipient: string;
  phone: string;
  region: string;
  address: string;
}

/** The shipping address inputs, read back with `readAddress` from the form's data. */
export function AddressFields({ legend = 'Shipping address' }: { legend?: string }) {
  return (
    <fieldset className="address">
      <legend>{legend}</legend>
      <label>
        Recipient <input name="recipient" required maxLength={80} autoComplete="name" />
      </label>
      <label>
        Phone <input name="phone" required maxLength={40} type="tel" autoComplete="tel" />
      </label>
      <label>
        Region{' '}
        <select name="region" required defaultValue="CN-SH">
          {REGIONS.map(([code, name]) => (
            <option key={code} value={code}>
              {name}
            </option>
          ))}
        </select>
      </label>
      <label>
        Address <input name="address" required maxLength={300} autoComplete="street-address" />
      </label>
    </fieldset>
  );
}

export function readAddress(form: FormData): Address {
  const text = (name: string) => String(form.get(name) ?? '').trim();
  return { recipient: text('recipient'), phone: text('phone'), region: text('region'), address: text('address') };
}
