import { type FormEvent } from 'react';
import { useQuery } from 'urql';
import { graphql } from '../gql';
import type { AdminCustomersQuery, CustomerState, NameSort } from '../gql/graphql';
import { ActionButton, Field, StateSelect, label, text, usePageParam, useFilterParams, useListContext, useAction, when } from '../kit';
import { DataTable, useSortOf, type Column } from '../data-table';

const PAGE_SIZE = 20;

const AdminCustomers = graphql(`
  query AdminCustomers($q: String, $state: CustomerState, $sort: NameSort, $page: Int, $pageSize: Int) {
    customers(q: $q, state: $state, sort: $sort, page: $page, pageSize: $pageSize) {
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

const STATES = ['ACTIVE', 'DISABLED'] as const;
/** The orders the customer list reads in (index-backed: by id or by display name). */
const SORTS: readonly NameSort[] = ['NEWEST', 'OLDEST', 'NAME_ASC', 'NAME_DESC'];

const COLUMNS: Column<Customer>[] = [
  {
    header: 'Customer',
    sort: { asc: 'NAME_ASC', desc: 'NAME_DESC' },
    cell: (c) => (
      <>
        #{c.id} {c.displayName} &lt;{c.email}&gt;
      </>
    ),
  },
  { header: 'Orders', cell: (c) => c.orderCount },
  { header: 'Since', sort: { asc: 'OLDEST', desc: 'NEWEST' }, cell: (c) => when(c.createdAt) },
  { header: 'State', cell: (c) => (c.state === 'DISABLED' ? `Disabled: ${c.disabledReason ?? ''} (${when(c.disabledAt)})` : label(c.state)) },
  {
    header: 'Actions',
    cell: (c) =>
      c.state === 'DISABLED' ? (
        <ActionButton mutation={EnableCustomer} variables={{ input: { customerId: c.id } }} payload={(d) => d.enableCustomer} label="Enable" refused="Not enabled" />
      ) : (
        <DisableForm customer={c} />
      ),
  },
];

/** Customers: search by email, name or id, narrow by state; a disabled account cannot sign in and its sessions end. */
export function Customers() {
  const [page] = usePageParam();
  const [{ q, state }, setFilters] = useFilterParams(['q', 'state']);
  const sort = useSortOf(SORTS);
  const [result] = useQuery({
    query: AdminCustomers,
    context: useListContext('Customer'),
    variables: { q: q || null, state: (state || null) as CustomerState | null, sort, page, pageSize: PAGE_SIZE },
  });
  return (
    <>
      <h1>Customers</h1>
      <DataTable
        label="Customers"
        result={result}
        list={(data) => data.customers}
        columns={COLUMNS}
        rowKey={(c) => c.id}
        rowProps={() => ({ 'data-testid': 'customer-row' })}
        search={{ label: 'Email, name or id' }}
        filters={<StateSelect label="State" value={state} states={STATES} onChange={(value) => setFilters({ state: value })} />}
        empty="No customer matches."
        what="Loading customers"
      />
    </>
  );
}
