import { useMemo, type FormEvent } from 'react';
import { useQuery } from 'urql';
import { graphql } from '../gql';
import type { ConsoleShopApplicationsQuery, ShopApplicationStatus } from '../gql/graphql';
import { ActionButton, Field, StateSelect, label, text, usePageParam, useFilterParams, useListContext, useAction, when } from '../kit';
import { DataTable, type Column } from '../data-table';

const PAGE_SIZE = 20;

const ShopApplications = graphql(`
  query ConsoleShopApplications($status: ShopApplicationStatus, $q: String, $page: Int, $pageSize: Int) {
    shopApplications(status: $status, q: $q, page: $page, pageSize: $pageSize) {
      page
      pageSize
      total
      items {
        id
        applicantName
        applicantEmail
        status
        legalName
        shopName
        slug
        contactName
        contactPhone
        contactEmail
        categoryIds
        description
        termsAcceptedAt
        rejectReason
        shopId
        createdAt
        decidedAt
        withdrawnAt
      }
    }
    categories {
      id
      name
    }
  }
`);

const ApproveShopApplication = graphql(`
  mutation ConsoleApproveShopApplication($input: ApproveShopApplicationInput!) {
    approveShopApplication(input: $input) {
      application {
        id
        status
        shopId
        decidedAt
      }
      userErrors {
        ...UserErrorFields
      }
    }
  }
`);

const RejectShopApplication = graphql(`
  mutation ConsoleRejectShopApplication($input: RejectShopApplicationInput!) {
    rejectShopApplication(input: $input) {
      application {
        id
        status
        rejectReason
        decidedAt
      }
      userErrors {
        ...UserErrorFields
      }
    }
  }
`);

type Application = ConsoleShopApplicationsQuery['shopApplications']['items'][number];

const STATUSES: readonly ShopApplicationStatus[] = ['SUBMITTED', 'APPROVED', 'REJECTED', 'WITHDRAWN'];

/** The reason is what the applicant reads: the server refuses a blank one, on its field. */
function RejectForm({ application }: { application: Application }) {
  const reject = useAction(RejectShopApplication, (d) => d.rejectShopApplication, 'Not rejected');
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    await reject.run({ input: { applicationId: application.id, reason: text(new FormData(event.currentTarget).get('reason')) } });
  };
  return (
    <form onSubmit={submit} aria-label={`Reject application #${application.id}`} noValidate>
      <Field label="Reason told to the applicant" name={`application-${application.id}-reason`} error={reject.errors.of('reason')}>
        {(props) => <textarea {...props} name="reason" rows={2} maxLength={500} />}
      </Field>
      {reject.unshown((k) => k === 'reason')}
      <button type="submit" disabled={reject.fetching}>
        Reject
      </button>
    </form>
  );
}

function Decision({ application }: { application: Application }) {
  switch (application.status) {
    case 'SUBMITTED':
      return (
        <>
          <ActionButton
            mutation={ApproveShopApplication}
            variables={{ input: { applicationId: application.id } }}
            payload={(d) => d.approveShopApplication}
            label="Approve"
            confirm={`Create the shop ${application.shopName} and make the applicant its owner?`}
            refused="Not approved"
            invalidates={['AdminShop']}
          />
          <RejectForm application={application} />
        </>
      );
    case 'APPROVED':
      return <>Approved {when(application.decidedAt)}: shop {application.shopName}</>;
    case 'REJECTED':
      return (
        <>
          Rejected {when(application.decidedAt)}: “{application.rejectReason}”
        </>
      );
    case 'WITHDRAWN':
      return <>Withdrawn by the applicant {when(application.withdrawnAt)}</>;
  }
}

/** The table's columns; the categories' names come with the list's query (one read, not one per row). */
function applicationColumns(categoryName: ReadonlyMap<number, string>): readonly Column<Application>[] {
  return [
    {
      header: 'Shop',
      cell: (a) => (
        <>
          <strong>
            #{a.id} {a.shopName}
          </strong>{' '}
          ({label(a.status)})<br />
          <span>{a.legalName}</span>, /shops/{a.slug}
          <br />
          <span className="meta">
            Sent {when(a.createdAt)} (terms accepted {when(a.termsAcceptedAt)})
          </span>
        </>
      ),
    },
    {
      header: 'Applicant',
      cell: (a) => (
        <>
          <span>
            {a.applicantName} &lt;{a.applicantEmail}&gt;
          </span>
          <br />
          Contact: {a.contactName}, {a.contactPhone}, {a.contactEmail}
        </>
      ),
    },
    {
      header: 'Sells in',
      cell: (a) => (
        <>
          <span>{a.categoryIds.map((id) => categoryName.get(id) ?? `#${id}`).join(', ')}</span>
          {a.description ? <p>{a.description}</p> : null}
        </>
      ),
    },
    { header: 'Decision', cell: (a) => <Decision application={a} /> },
  ];
}

/**
 * Shop applications (issue 41, shop onboarding): the submitted ones by default, or those of another
 * state, found on the server by the shop's, the contact's or the applicant's name or email; each
 * approved (the shop, its profile and the owner's membership are created at once) or rejected with a
 * reason the applicant reads. Each is decided alone (a rejection has its own reason): no bulk action.
 */
export function ShopApplicationsScreen() {
  const [page] = usePageParam();
  const [{ status, q }, setFilters] = useFilterParams(['status', 'q']);
  // No filter in the address: the submitted ones, waiting for a decision; "all" lifts the filter.
  const chosen = status === '' ? 'SUBMITTED' : status;
  const filter = STATUSES.find((s) => s === chosen) ?? null;
  const [result] = useQuery({ query: ShopApplications, context: useListContext('ShopApplication'), variables: { status: filter, q: q || null, page, pageSize: PAGE_SIZE } });
  const columns = useMemo(() => applicationColumns(new Map((result.data?.categories ?? []).map((c) => [c.id, c.name]))), [result.data?.categories]);
  return (
    <>
      <h1>Shop applications</h1>
      <DataTable
        label="Shop applications"
        result={result}
        list={(data) => data.shopApplications}
        columns={columns}
        rowKey={(a) => a.id}
        rowProps={(a) => ({ 'data-testid': 'shop-application', 'data-application-id': a.id })}
        search={{ label: 'Shop, contact or applicant' }}
        filters={<StateSelect label="State" value={chosen} states={STATUSES} any="All" anyValue="all" onChange={(value) => setFilters({ status: value === 'SUBMITTED' ? '' : value })} />}
        empty="No application matches."
        what="Loading applications"
      />
    </>
  );
}
