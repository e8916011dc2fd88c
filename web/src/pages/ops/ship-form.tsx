import type { FormEvent } from 'react';
import { useMutation } from 'urql';
import { graphql } from '../../gql';
import { ErrorNotice } from '../../ui/query-state';
import { refusalOf } from '../../api/errors';

const ShipOrder = graphql(`
  mutation ShipOrder($input: CreateShipmentInput!) {
    createShipment(input: $input) {
      order {
        id
        status
      }
      userErrors {
        ...UserErrorFields
      }
    }
  }
`);

/** Ships what is left of a paid order in one parcel (shop operators only). */
export function ShipForm({ orderId, companies, onShipped }: { orderId: number; companies: { code: string; name: string }[]; onShipped: () => void }) {
  const [state, ship] = useMutation(ShipOrder);
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const result = await ship({ input: { orderId, companyCode: String(form.get('company')), trackingNumber: String(form.get('tracking')).trim() } });
    if (result.data?.createShipment.order) onShipped();
  };
  const refused = refusalOf(state.error, state.data?.createShipment);
  return (
    <form onSubmit={submit} className="ship-form" aria-label={`Ship order #${orderId}`}>
      <label>
        Carrier{' '}
        <select name="company" required>
          {companies.map((c) => (
            <option key={c.code} value={c.code}>
              {c.name}
            </option>
          ))}
        </select>
      </label>
      <label>
        Tracking number <input name="tracking" required maxLength={80} />
      </label>
      <button type="submit" className="primary" disabled={state.fetching}>
        Ship
      </button>
      {refused ? <ErrorNotice error={refused} title="Not shipped" /> : null}
    </form>
  );
}
