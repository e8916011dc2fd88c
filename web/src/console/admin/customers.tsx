import { type FormEvent } from 'react';
import { useQuery } from 'urql';
import { graphql } from '../gql';
import type { AdminCustomersQuery } from '../gql/graphql';
import { QueryResult } from '../../ui/query-result';
import { ActionButton, Field, Pager, label, text, usePageParam, useFilterParam, useListContext, useAction, when } from '../kit';

const PAGE_SIZE = 20;

const AdminCustomers = graphql(`
  query AdminCustomers($q: String, $page: Int, $pageSize: Int) {
    customers(q: $q, page: $page, pageSize: $pageSize) {
      page
      pageSize
      total
      items {
        id
        email
        displayName
        state
        disabledAt
        disabledReason
        orderCount
        createdAt
      }
    }
  }
`);

const DisableCustomer = graphql(`
  mutation ConsoleDisableCustomer($input: DisableCustomerInput!) {
    disableCustomer(input: $input) {
      customer {
        id
        state
        disabledAt
        disabledReason
      }
      userErrors {
        ...UserErrorFields
      }
    }
  }
`);

const EnableCustomer = graphql(`
  mutation ConsoleEnableCustomer($input: EnableCustomerInput!) {
    enableCustomer(input: $input) {
      customer {
        id
        state
        disabledAt
        disabledReason
      }
      userErrors {
        ...UserErrorFields
      }
    }
  }
`);

type Customer = AdminCustomersQuery['customers']['items'][number];

function DisableForm({ customer }: { customer: Customer }) {
  const disable = useAction(DisableCustomer, (d) => d.disableCustomer, 'Not disabled');
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    await disable.run({ input: { customerId: customer.id, reason: text(new FormData(event.currentTarget).get('reason')) } });
  };
  return (
    <form onSubmit={submit} aria-label={`Disable ${customer.email}`} noValidate>
      <Field label="Reason" name={`customer-${customer.id}-reason`} error={disable.errors.of('reason')}>
        {(props) => <input {...props} name="reason" />}
      </Field>
      {disable.unshown((k) => k === 'reason')}
      <button type="submit" disabled={disable.fetching}>
        Disable
      </button>
    </form>
  );
}

/** Customers: search by email, name or id; a disabled account cannot sign in and its sessions end. */
export function Customers() {
  const [page, setPage] = usePageParam();
  const [q, setQ] = useFilterParam('q');
  const [result] = useQuery({ query: AdminCustomers, context: useListContext('Customer'), variables: { q: q || null, page, pageSize: PAGE_SIZE } });
  const search = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setQ(text(new FormData(event.currentTarget).get('q')));
  };
  return (
    <>
      <h1>Customers</h1>
      <form onSubmit={search} role="search" aria-label="Find customers">
        <Field label="Email, name or id" name="customer-search">
          {(props) => <input {...props} name="q" defaultValue={q} />}
        </Field>
        <button type="submit">Search</button>
      </form>
      <QueryResult result={result} what="Loading customers">
        {({ customers }) => (
          <>
            <table className="grid">
              <thead>
                <tr>
                  <th scope="col">Customer</th>
                  <th scope="col">Orders</th>
                  <th scope="col">Since</th>
                  <th scope="col">State</th>
                  <th scope="col">Actions</th>
                </tr>
              </thead>
              <tbody>
                {customers.items.map((c) => (
                  <tr key={c.id} data-testid="customer-row">
                    <td>
                      #{c.id} {c.displayName} &lt;{c.email}&gt;
                    </td>
                    <td>{c.orderCount}</td>
                    <td>{when(c.createdAt)}</td>
                    <td>{c.state === 'DISABLED' ? `Disabled: ${c.disabledReason ?? ''} (${when(c.disabledAt)})` : label(c.state)}</td>
                    <td>
                      {c.state === 'DISABLED' ? (
                        <ActionButton mutation={EnableCustomer} variables={{ input: { customerId: c.id } }} payload={(d) => d.enableCustomer} label="Enable" refused="Not enabled" />
                      ) : (
                        <DisableForm customer={c} />
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
            <Pager page={customers.page} pageSize={customers.pageSize} total={customers.total} onPage={setPage} />
          </>
        )}
      </QueryResult>
    </>
  );
}
