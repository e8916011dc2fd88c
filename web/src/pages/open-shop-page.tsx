import { type FormEvent } from 'react';
import { useMutation, useQuery } from 'urql';
import { refusalOf } from '../api/errors';
import { graphql } from '../gql';
import type { MyShopApplicationsQuery } from '../gql/graphql';
import { RequireSignIn } from '../auth/require-sign-in';
import { useSession } from '../auth/session';
import { Field, FormErrors } from '../console/kit';
import { ErrorNotice } from '../ui/query-state';
import { QueryResult } from '../ui/query-result';
import { usePageTitle } from '../ui/page-title';
import { formatDateTime } from '../ui/dates';

const MyShopApplications = graphql(`
  query MyShopApplications {
    categories {
      id
      name
      depth
    }
    myShopApplications(pageSize: 20) {
      items {
        id
        status
        shopName
        slug
        rejectReason
        createdAt
        decidedAt
        withdrawnAt
      }
    }
  }
`);

const ApplyForShop = graphql(`
  mutation ApplyForShop($input: ApplyForShopInput!) {
    applyForShop(input: $input) {
      application {
        id
        status
      }
      userErrors {
        ...UserErrorFields
      }
    }
  }
`);

const WithdrawShopApplication = graphql(`
  mutation WithdrawShopApplication($input: WithdrawShopApplicationInput!) {
    withdrawShopApplication(input: $input) {
      application {
        id
        status
        withdrawnAt
      }
      userErrors {
        ...UserErrorFields
      }
    }
  }
`);

type Application = MyShopApplicationsQuery['myShopApplications']['items'][number];
type Category = MyShopApplicationsQuery['categories'][number];

/** The form's text fields: the input's name, its label, the input's type. */
const TEXT_FIELDS = [
  ['legalName', 'Legal name of the business', 'text'],
  ['shopName', 'Shop name', 'text'],
  ['slug', 'Shop address (slug)', 'text'],
  ['contactName', 'Contact name', 'text'],
  ['contactPhone', 'Contact phone', 'tel'],
  ['contactEmail', 'Contact email', 'email'],
] as const;

/** The list is read again once an application is sent or withdrawn, the first one included. */
const LIST_CONTEXT = { additionalTypenames: ['ShopApplication'] };

function ApplicationForm({ categories }: { categories: readonly Category[] }) {
  const [state, apply] = useMutation(ApplyForShop);
  const payload = state.data?.applyForShop;
  const errors = new FormErrors(payload?.userErrors ?? []);
  const shown = (key: string) => TEXT_FIELDS.some(([name]) => name === key) || key === 'termsAccepted' || key === 'categoryIds' || key.startsWith('categoryIds.');
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const formElement = event.currentTarget;
    const form = new FormData(formElement);
    const value = (name: string) => String(form.get(name) ?? '').trim();
    const result = await apply(
      {
        input: {
          legalName: value('legalName'), shopName: value('shopName'), slug: value('slug'), contactName: value('contactName'), contactPhone: value('contactPhone'),
          contactEmail: value('contactEmail'), categoryIds: form.getAll('categoryIds').map(Number), termsAccepted: form.get('termsAccepted') === 'on',
        },
      },
      LIST_CONTEXT,
    );
    if (result.data?.applyForShop.application) formElement.reset();
  };
  const rest = state.error ?? errors.rest(shown);
  const categoriesError = errors.errors.filter((e) => e.field?.[1] === 'categoryIds').map((e) => e.message).join(' ');
  return (
    <form onSubmit={submit} aria-label="Shop application" noValidate>
      {TEXT_FIELDS.map(([name, label, type]) => (
        <Field key={name} label={label} name={`apply-${name}`} error={errors.of(name)}>
          {(props) => <input {...props} name={name} type={type} />}
        </Field>
      ))}
      <fieldset aria-describedby={categoriesError ? 'apply-categories-error' : undefined}>
        <legend>Categories you sell (1 to 20)</legend>
        {categories.map((c) => (
          <label key={c.id} style={{ paddingInlineStart: `${c.depth}em` }}>
            <input type="checkbox" name="categoryIds" value={c.id} /> {c.name}
          </label>
        ))}
        {categoriesError ? (
          <p id="apply-categories-error" className="field-message" role="alert">
            {categoriesError}
          </p>
        ) : null}
      </fieldset>
      <Field label="I accept the platform's terms for sellers" name="apply-termsAccepted" error={errors.of('termsAccepted')}>
        {(props) => <input {...props} name="termsAccepted" type="checkbox" />}
      </Field>
      {!(Array.isArray(rest) && rest.length === 0) ? <ErrorNotice error={rest} title="Not sent" /> : null}
      {payload?.application ? (
        <p className="notice notice-ok" role="status">
          Your application #{payload.application.id} is sent: the platform reviews it.
        </p>
      ) : null}
      <button type="submit" className="primary" disabled={state.fetching}>
        {state.fetching ? 'Sending…' : 'Send the application'}
      </button>
    </form>
  );
}

/** What each state means to the applicant. */
function statusText(a: Application): string {
  switch (a.status) {
    case 'SUBMITTED':
      return `Submitted ${formatDateTime(a.createdAt)}: the platform has not decided yet`;
    case 'APPROVED':
      return `Approved ${a.decidedAt ? formatDateTime(a.decidedAt) : ''}: sign in again to open the shop console`;
    case 'REJECTED':
      return `Rejected ${a.decidedAt ? formatDateTime(a.decidedAt) : ''}: “${a.rejectReason ?? ''}”`;
    case 'WITHDRAWN':
      return `Withdrawn ${a.withdrawnAt ? formatDateTime(a.withdrawnAt) : ''}`;
  }
}

function ApplicationItem({ application }: { application: Application }) {
  const [state, withdraw] = useMutation(WithdrawShopApplication);
  const refused = refusalOf(state.error, state.data?.withdrawShopApplication);
  return (
    <li data-testid="shop-application" data-status={application.status}>
      <strong>{application.shopName}</strong> ({application.slug}): {statusText(application)}.{' '}
      {application.status === 'SUBMITTED' ? (
        <button type="button" onClick={() => void withdraw({ input: { applicationId: application.id } })} disabled={state.fetching}>
          Withdraw
        </button>
      ) : null}
      {refused ? <ErrorNotice error={refused} title="Not withdrawn" /> : null}
    </li>
  );
}

function OpenShop() {
  const { session } = useSession();
  const [result] = useQuery({ query: MyShopApplications, context: LIST_CONTEXT, requestPolicy: 'cache-and-network' });
  return (
    <QueryResult result={result} what="Loading your applications">
      {({ categories, myShopApplications }) => (
        <>
          {myShopApplications.items.length > 0 ? (
            <section aria-labelledby="my-applications">
              <h2 id="my-applications">Your applications</h2>
              <ul>
                {myShopApplications.items.map((a) => (
                  <ApplicationItem key={a.id} application={a} />
                ))}
              </ul>
            </section>
          ) : null}
          <section aria-labelledby="apply-heading">
            <h2 id="apply-heading">Apply</h2>
            {session?.user.role === 'CUSTOMER' ? (
              <ApplicationForm categories={categories} />
            ) : (
              <p>A customer account applies: this account already belongs to a shop's staff.</p>
            )}
          </section>
        </>
      )}
    </QueryResult>
  );
}

/**
 * Applying to open a shop on the mall (issue 41, shop onboarding): the business, its contact, the
 * categories it means to sell in and the terms; the platform approves or rejects with a reason shown
 * here, and a submitted application may be withdrawn.
 */
export default function OpenShopPage() {
  usePageTitle('Open a shop');
  return (
    <section>
      <h1>Open a shop on Mallfront</h1>
      <RequireSignIn roles={['CUSTOMER', 'SHOP_OPERATOR']}>
        <OpenShop />
      </RequireSignIn>
    </section>
  );
}
