import { type FormEvent } from 'react';
import { useQuery } from 'urql';
import { graphql } from '../gql';
import type { ConsoleShopApplicationsQuery, ShopApplicationStatus } from '../gql/graphql';
import { QueryResult } from '../../ui/query-result';
import { ActionButton, Field, Pager, StateSelect, label, text, usePageParam, useFilterParam, useListContext, useAction, when } from '../kit';

const PAGE_SIZE = 20;

const ShopApplications = graphql(`
  query ConsoleShopApplications($status: ShopApplicationStatus, $page: Int, $pageSize: Int) {
    shopApplications(status: $status, page: $page, pageSize: $pageSize) {
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

/**
 * Shop applications (issue 41, shop onboarding): the submitted ones by default, or those of another
 * state; each with what the applicant sent, approved (the shop, its profile and the owner's
 * membership are created at once) or rejected with a reason the applicant reads.
 */
export function ShopApplicationsScreen() {
  const [page, setPage] = usePageParam();
  const [status, setStatus] = useFilterParam('status');
  // No filter in the address: the submitted ones, waiting for a decision; "all" lifts the filter.
  const chosen = status === '' ? 'SUBMITTED' : status;
  const filter = STATUSES.find((s) => s === chosen) ?? null;
  const [result] = useQuery({ query: ShopApplications, context: useListContext('ShopApplication'), variables: { status: filter, page, pageSize: PAGE_SIZE } });
  return (
    <>
      <h1>Shop applications</h1>
      <StateSelect label="State" value={chosen} states={STATUSES} any="All" anyValue="all" onChange={(value) => setStatus(value === 'SUBMITTED' ? '' : value)} />
      <QueryResult result={result} what="Loading applications">
        {({ shopApplications, categories }) => {
          const categoryName = new Map(categories.map((c) => [c.id, c.name]));
          return (
            <>
              {shopApplications.items.length === 0 ? <p role="status">No application in this state.</p> : null}
              <ul className="plain-list">
                {shopApplications.items.map((a) => (
                  <li key={a.id} className="panel" data-testid="shop-application" aria-labelledby={`application-${a.id}`}>
                    <h2 id={`application-${a.id}`}>
                      #{a.id} {a.shopName} ({label(a.status)})
                    </h2>
                    <dl className="details">
                      <dt>Legal name</dt>
                      <dd>{a.legalName}</dd>
                      <dt>Address</dt>
                      <dd>/shops/{a.slug}</dd>
                      <dt>Applicant</dt>
                      <dd>
                        {a.applicantName} &lt;{a.applicantEmail}&gt;
                      </dd>
                      <dt>Contact</dt>
                      <dd>
                        {a.contactName}, {a.contactPhone}, {a.contactEmail}
                      </dd>
                      <dt>Sells in</dt>
                      <dd>{a.categoryIds.map((id) => categoryName.get(id) ?? `#${id}`).join(', ')}</dd>
                      {a.description ? (
                        <>
                          <dt>Description</dt>
                          <dd>{a.description}</dd>
                        </>
                      ) : null}
                      <dt>Sent</dt>
                      <dd>
                        {when(a.createdAt)} (terms accepted {when(a.termsAcceptedAt)})
                      </dd>
                    </dl>
                    <Decision application={a} />
                  </li>
                ))}
              </ul>
              <Pager page={shopApplications.page} pageSize={shopApplications.pageSize} total={shopApplications.total} onPage={setPage} />
            </>
          );
        }}
      </QueryResult>
    </>
  );
}
