import { useState, type FormEvent } from 'react';
import { useQuery } from 'urql';
import { graphql } from './gql';
import type { EventType, WebhookEndpointsQuery } from './gql/graphql';
import { QueryResult } from '../ui/query-result';
import { ActionButton, Field, Pager, label, text, useAction, useFilterParam, useListContext, usePageParam, when } from './kit';

const PAGE_SIZE = 20;

/**
 * Every event type an endpoint may subscribe to, with what it means here. A `Record` over the schema's
 * enum, so a new event type does not compile until it is named here.
 */
const EVENT_TYPES: Record<EventType, string> = {
  ORDER_PLACED: 'Order placed',
  ORDER_PAID: 'Order paid',
  ORDER_CANCELLED: 'Order cancelled',
  ORDER_DELIVERED: 'Order delivered',
  ORDER_COMPLETED: 'Order completed',
  SHIPMENT_CREATED: 'Shipment created',
  GROUP_STATE_CHANGED: 'Group buy changed',
  REDEMPTION_CREATED: 'Points redemption',
  STOCK_LOW: 'Stock low',
  REVIEW_CREATED: 'Review written',
  REVIEW_REPLIED: 'Review replied',
  REFUND_REQUESTED: 'Refund requested',
  REFUND_APPROVED: 'Refund approved',
  REFUND_SHIPPED_BACK: 'Refund shipped back',
  REFUND_COMPLETED: 'Refund completed',
  REFUND_REJECTED: 'Refund rejected',
  REFUND_CANCELLED: 'Refund cancelled',
  EARNINGS_RELEASED: 'Earnings released',
  PAYOUT_CREATED: 'Payout created',
  PAYOUT_SETTLED: 'Payout settled',
  PAYMENT_CAPTURED: 'Payment captured',
  PAYMENT_FAILED: 'Payment failed',
  PAYMENT_REFUNDED: 'Payment refunded',
  SHOP_SUSPENDED: 'Shop suspended',
  SHOP_REINSTATED: 'Shop reinstated',
  SHOP_CLOSED: 'Shop closed',
  DISPUTE_OPENED: 'Dispute opened',
  DISPUTE_RESOLVED: 'Dispute resolved',
  WEBHOOK_ENDPOINT_DISABLED: 'Webhook endpoint turned off',
};
const ALL_TYPES = Object.keys(EVENT_TYPES) as EventType[];

const WebhookEndpoints = graphql(`
  query WebhookEndpoints($page: Int, $pageSize: Int) {
    webhookEndpoints(page: $page, pageSize: $pageSize) {
      page
      pageSize
      total
      items {
        id
        url
        eventTypes
        active
        disabledReason
        createdAt
      }
    }
  }
`);

const WebhookAttempts = graphql(`
  query WebhookAttempts($endpointId: Int!, $page: Int, $pageSize: Int) {
    webhookAttempts(endpointId: $endpointId, page: $page, pageSize: $pageSize) {
      page
      pageSize
      total
      items {
        id
        eventId
        attemptedAt
        statusCode
        latencyMs
        error
        responseHead
      }
    }
  }
`);

const CreateEndpoint = graphql(`
  mutation ConsoleCreateWebhookEndpoint($input: CreateWebhookEndpointInput!) {
    createWebhookEndpoint(input: $input) {
      endpoint {
        id
        url
        secret
      }
      userErrors {
        ...UserErrorFields
      }
    }
  }
`);

const UpdateEndpoint = graphql(`
  mutation ConsoleUpdateWebhookEndpoint($input: UpdateWebhookEndpointInput!) {
    updateWebhookEndpoint(input: $input) {
      endpoint {
        id
        url
        eventTypes
        active
        disabledReason
      }
      userErrors {
        ...UserErrorFields
      }
    }
  }
`);

const DeleteEndpoint = graphql(`
  mutation ConsoleDeleteWebhookEndpoint($input: DeleteWebhookEndpointInput!) {
    deleteWebhookEndpoint(input: $input) {
      deletedEndpointId
      userErrors {
        ...UserErrorFields
      }
    }
  }
`);

const RotateSecret = graphql(`
  mutation ConsoleRotateWebhookSecret($input: RotateWebhookSecretInput!) {
    rotateWebhookSecret(input: $input) {
      endpoint {
        id
        url
        secret
      }
      userErrors {
        ...UserErrorFields
      }
    }
  }
`);

const PingEndpoint = graphql(`
  mutation ConsolePingWebhookEndpoint($input: PingWebhookEndpointInput!) {
    pingWebhookEndpoint(input: $input) {
      attempt {
        id
        statusCode
        latencyMs
        error
      }
      userErrors {
        ...UserErrorFields
      }
    }
  }
`);

const Redeliver = graphql(`
  mutation ConsoleRedeliverWebhookEvent($input: RedeliverWebhookEventInput!) {
    redeliverWebhookEvent(input: $input) {
      redeliveredEventId
      userErrors {
        ...UserErrorFields
      }
    }
  }
`);

type Endpoint = WebhookEndpointsQuery['webhookEndpoints']['items'][number];

/** A signing secret, shown once (the server never shows it again): copy it now. */
function SecretOnce({ secret, url }: { secret: string; url: string }) {
  return (
    <div className="notice" role="status" data-testid="webhook-secret">
      <p>
        Signing secret of {url}, shown only now: keep it where the receiver can read it.
      </p>
      <code>{secret}</code>
    </div>
  );
}

/** The event types as checkboxes, named `types`. */
function TypeChoices({ chosen, error, name }: { chosen: readonly EventType[]; error?: string; name: string }) {
  return (
    <fieldset className={error ? 'field-error' : undefined} aria-describedby={error ? `${name}-error` : undefined}>
      <legend>Events</legend>
      {ALL_TYPES.map((type) => (
        <label key={type} className="method-choice">
          <input type="checkbox" name="types" value={type} defaultChecked={chosen.includes(type)} /> {EVENT_TYPES[type]}
        </label>
      ))}
      {error ? (
        <p id={`${name}-error`} className="field-message" role="alert">
          {error}
        </p>
      ) : null}
    </fieldset>
  );
}

const typesOf = (form: FormData) => form.getAll('types').map(String) as EventType[];

function CreateForm() {
  const create = useAction(CreateEndpoint, (d) => d.createWebhookEndpoint, 'Endpoint not added');
  const [created, setCreated] = useState<{ secret: string; url: string } | null>(null);
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    const data = new FormData(form);
    const answer = await create.run({ input: { url: text(data.get('url')), eventTypes: typesOf(data) } });
    if (answer?.endpoint) {
      setCreated({ secret: answer.endpoint.secret, url: answer.endpoint.url });
      form.reset();
    }
  };
  return (
    <section aria-labelledby="new-endpoint">
      <h2 id="new-endpoint">Add an endpoint</h2>
      {created ? <SecretOnce {...created} /> : null}
      <form onSubmit={submit} noValidate aria-label="Add an endpoint">
        <Field label="URL (https)" name="webhook-url" error={create.errors.of('url')}>
          {(props) => <input {...props} name="url" type="url" placeholder="https://example.com/hooks/mall" />}
        </Field>
        <TypeChoices chosen={[]} name="webhook-types" error={create.errors.of('eventTypes')} />
        {create.unshown((k) => k === 'url' || k === 'eventTypes')}
        <button type="submit" className="primary" disabled={create.fetching}>
          Add endpoint
        </button>
      </form>
    </section>
  );
}

function EditForm({ endpoint, done }: { endpoint: Endpoint; done: () => void }) {
  const update = useAction(UpdateEndpoint, (d) => d.updateWebhookEndpoint, 'Endpoint not changed');
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    if (await update.run({ input: { endpointId: endpoint.id, url: text(data.get('url')), eventTypes: typesOf(data) } })) done();
  };
  return (
    <form onSubmit={submit} noValidate aria-label={`Edit ${endpoint.url}`}>
      <Field label="URL (https)" name={`webhook-${endpoint.id}-url`} error={update.errors.of('url')}>
        {(props) => <input {...props} name="url" type="url" defaultValue={endpoint.url} />}
      </Field>
      <TypeChoices chosen={endpoint.eventTypes} name={`webhook-${endpoint.id}-types`} error={update.errors.of('eventTypes')} />
      {update.unshown((k) => k === 'url' || k === 'eventTypes')}
      <button type="submit" className="primary" disabled={update.fetching}>
        Save
      </button>{' '}
      <button type="button" onClick={done}>
        Cancel
      </button>
    </form>
  );
}

/** Rotation shows the new secret once; the old one keeps signing for the overlap the server sets. */
function RotateButton({ endpoint }: { endpoint: Endpoint }) {
  const rotate = useAction(RotateSecret, (d) => d.rotateWebhookSecret, 'Secret not rotated');
  const [secret, setSecret] = useState<string | null>(null);
  const run = async () => {
    const answer = await rotate.run({ input: { endpointId: endpoint.id } });
    if (answer?.endpoint) setSecret(answer.endpoint.secret);
  };
  return (
    <>
      <button type="button" onClick={() => void run()} disabled={rotate.fetching}>
        Rotate secret
      </button>
      {rotate.refusal}
      {secret ? <SecretOnce secret={secret} url={endpoint.url} /> : null}
    </>
  );
}

function PingButton({ endpoint }: { endpoint: Endpoint }) {
  const ping = useAction(PingEndpoint, (d) => d.pingWebhookEndpoint, 'Not pinged');
  const [answer, setAnswer] = useState<string | null>(null);
  const run = async () => {
    const result = await ping.run({ input: { endpointId: endpoint.id } });
    const attempt = result?.attempt;
    if (attempt) setAnswer(attempt.statusCode ? `Answered ${attempt.statusCode} in ${attempt.latencyMs} ms` : `No answer: ${attempt.error ?? 'failed'}`);
  };
  return (
    <>
      <button type="button" onClick={() => void run()} disabled={ping.fetching}>
        {ping.fetching ? 'Pinging…' : 'Ping'}
      </button>
      {ping.refusal}
      {answer ? (
        <span role="status" data-testid="ping-result">
          {' '}
          {answer}
        </span>
      ) : null}
    </>
  );
}

function EndpointRow({ endpoint, onShowLog }: { endpoint: Endpoint; onShowLog: () => void }) {
  const [editing, setEditing] = useState(false);
  return (
    <tr data-testid="webhook-row">
      <td>
        #{endpoint.id} {endpoint.url}
      </td>
      <td>{endpoint.eventTypes.map((t) => EVENT_TYPES[t]).join(', ')}</td>
      <td>{endpoint.active ? 'On' : `Off${endpoint.disabledReason ? ` (${label(endpoint.disabledReason)})` : ''}`}</td>
      <td>{when(endpoint.createdAt)}</td>
      <td className="row-actions">
        {editing ? (
          <EditForm endpoint={endpoint} done={() => setEditing(false)} />
        ) : (
          <>
            <button type="button" onClick={() => setEditing(true)}>
              Edit
            </button>
            <ActionButton
              mutation={UpdateEndpoint}
              variables={{ input: { endpointId: endpoint.id, active: !endpoint.active } }}
              payload={(d) => d.updateWebhookEndpoint}
              label={endpoint.active ? 'Turn off' : 'Turn on'}
              confirm={endpoint.active ? 'Turn off? Its waiting deliveries are cancelled.' : undefined}
              refused="Not changed"
            />
            <RotateButton endpoint={endpoint} />
            <PingButton endpoint={endpoint} />
            <button type="button" onClick={onShowLog}>
              Deliveries
            </button>
            <ActionButton
              mutation={DeleteEndpoint}
              variables={{ input: { endpointId: endpoint.id } }}
              payload={(d) => d.deleteWebhookEndpoint}
              label="Delete"
              confirm={`Delete ${endpoint.url}? Nothing more is sent to it.`}
              refused="Not deleted"
              invalidates={['WebhookEndpoint']}
            />
          </>
        )}
      </td>
    </tr>
  );
}

/** An endpoint's delivery log, newest first, and sending one stored event again. */
function DeliveryLog({ endpointId }: { endpointId: number }) {
  const [page, setPage] = usePageParam('log-page');
  const [result] = useQuery({ query: WebhookAttempts, context: useListContext('WebhookAttempt'), variables: { endpointId, page, pageSize: PAGE_SIZE } });
  const redeliver = useAction(Redeliver, (d) => d.redeliverWebhookEvent, 'Not sent again');
  const [sent, setSent] = useState<string | null>(null);
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const answer = await redeliver.run({ input: { endpointId, eventId: text(new FormData(event.currentTarget).get('event')) } });
    if (answer?.redeliveredEventId) setSent(answer.redeliveredEventId);
  };
  return (
    <section aria-labelledby="delivery-log">
      <h2 id="delivery-log">Deliveries of endpoint #{endpointId}</h2>
      <form onSubmit={submit} noValidate aria-label="Send an event again">
        <Field label="Event id" name="redeliver-event" error={redeliver.errors.of('eventId')}>
          {(props) => <input {...props} name="event" inputMode="numeric" />}
        </Field>
        {redeliver.unshown((k) => k === 'eventId')}
        <button type="submit" disabled={redeliver.fetching}>
          Send again
        </button>
        {sent ? <span role="status"> Event {sent} is queued for this endpoint.</span> : null}
      </form>
      <QueryResult result={result} what="Loading deliveries">
        {({ webhookAttempts }) =>
          webhookAttempts ? (
            <>
              <table className="grid" aria-label="Deliveries">
                <thead>
                  <tr>
                    <th scope="col">When</th>
                    <th scope="col">Event</th>
                    <th scope="col">Answer</th>
                    <th scope="col">Time</th>
                    <th scope="col">Error or answer's start</th>
                  </tr>
                </thead>
                <tbody>
                  {webhookAttempts.items.map((a) => (
                    <tr key={a.id} data-testid="attempt-row">
                      <td>{when(a.attemptedAt)}</td>
                      <td>{a.eventId ?? 'ping'}</td>
                      <td>{a.statusCode ?? 'none'}</td>
                      <td>{a.latencyMs} ms</td>
                      <td>{a.error ?? a.responseHead ?? ''}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
              {webhookAttempts.total === 0 ? <p>Nothing sent to this endpoint yet.</p> : null}
              <Pager page={webhookAttempts.page} pageSize={webhookAttempts.pageSize} total={webhookAttempts.total} onPage={setPage} />
            </>
          ) : (
            <p role="alert">No such endpoint.</p>
          )
        }
      </QueryResult>
    </section>
  );
}

/**
 * Webhook endpoints of the signed-in console: the platform's (every event of their types) or the
 * own shop's (the shop's events); the server scopes the list and every action to the caller. Add,
 * edit, turn off and on, rotate the secret, ping, read the delivery log and send an event again.
 */
export function Webhooks() {
  const [page, setPage] = usePageParam();
  const [shown, setShown] = useFilterParam('endpoint');
  const [result] = useQuery({ query: WebhookEndpoints, context: useListContext('WebhookEndpoint', 'WebhookEndpointWithSecret'), variables: { page, pageSize: PAGE_SIZE } });
  return (
    <>
      <h1>Webhooks</h1>
      <p className="meta">Each delivery is signed with the endpoint's secret; docs/api.md "Webhooks" says how to check it.</p>
      <QueryResult result={result} what="Loading endpoints">
        {({ webhookEndpoints }) => (
          <>
            <table className="grid" aria-label="Endpoints">
              <thead>
                <tr>
                  <th scope="col">Endpoint</th>
                  <th scope="col">Events</th>
                  <th scope="col">State</th>
                  <th scope="col">Since</th>
                  <th scope="col">Actions</th>
                </tr>
              </thead>
              <tbody>
                {webhookEndpoints.items.map((e) => (
                  <EndpointRow key={e.id} endpoint={e} onShowLog={() => setShown(String(e.id))} />
                ))}
              </tbody>
            </table>
            {webhookEndpoints.total === 0 ? <p>No endpoint yet.</p> : null}
            <Pager page={webhookEndpoints.page} pageSize={webhookEndpoints.pageSize} total={webhookEndpoints.total} onPage={setPage} />
          </>
        )}
      </QueryResult>
      {shown && Number.isInteger(Number(shown)) ? <DeliveryLog endpointId={Number(shown)} /> : null}
      <CreateForm />
    </>
  );
}
