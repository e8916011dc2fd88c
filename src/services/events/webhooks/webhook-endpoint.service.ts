import { AppError, notFound, validationError } from '../../../errors.js';
import { refusals } from '../../../error-codes.js';
import { WebhookDisabledReason } from '../../../entities/event.entity.js';
import type { ServiceContext } from '../../../shared/context.js';
import { requirePlatformPermission, requireShopPermission } from '../../../shared/guards.js';
import { grantOf, Permission } from '../../../shared/permissions.js';
import { atLeastOneField, idParam, parseInput, z } from '../../../shared/validate.js';
import { inTransaction } from '../../../shared/transaction.js';
import { typedSql } from '../../../db/typed-sql.js';
import { textArray } from '../../../db/sql.js';
import { pageFields, pageFrom, PageQuery, type Page } from '../../../shared/pagination.js';
import { sql } from 'kysely';
import { ALL_EVENT_TYPES, type EventType } from '../event-types.js';
import { newWebhookSecret } from './webhook-signing.js';
import { checkTargetAddresses, urlProblem, WebhookTargetRefused } from './webhook-target.js';
import { sendPing } from './webhook-dispatcher.js';
import type { WebhookAttemptView, WebhookEndpointView } from './webhook-views.js';
import { auditedWrite } from '../../../shared/audit.js';

export type { WebhookAttemptView };

/**
 * Outbound webhook endpoints: a platform admin's receive every event of the chosen types, a shop
 * operator's those of their own shop. Both doors (`/api/admin/webhooks`, `/api/merchant/webhooks`,
 * and GraphQL) call these; the scope comes from the caller, never from the input.
 */

type Scope = { shopId: number | null };

/**
 * Whose endpoints a door serves: `/api/admin/webhooks` the platform's (platform admins only),
 * `/api/merchant/webhooks` the operator's shop's (shop operators only), GraphQL the caller's (one
 * field per use case for both). A role the door is not for gets 403, before any endpoint is looked at.
 */
export type WebhookDoor = 'platform' | 'shop' | 'caller';

function scopeOf(ctx: ServiceContext, door: WebhookDoor): Scope {
  // Each door its own permission: the platform's endpoints, or the acting shop's; GraphQL's fields
  // (`caller`) serve whichever the caller holds, the platform's first.
  if (door === 'platform' || (door === 'caller' && ctx.actor && grantOf(ctx.actor, Permission.PlatformWebhooksManage) === 'platform')) {
    requirePlatformPermission(ctx, Permission.PlatformWebhooksManage);
    return { shopId: null };
  }
  return { shopId: requireShopPermission(ctx, Permission.ShopWebhooksManage).shopId };
}

const EventTypeList = z.array(z.enum(ALL_EVENT_TYPES as [EventType, ...EventType[]])).min(1).max(ALL_EVENT_TYPES.length);
/**
 * A receiver's address as the document states it: http(s); a host name, IPv4 address or bracketed IPv6
 * address with no user-info; a port; a path and query of URL characters; no fragment. What depends on
 * the deployment (https only outside development, the addresses behind the name) is checked when it is
 * saved and again when it is dialled (webhook-target.ts).
 */
const WEBHOOK_URL =
  /^[Hh][Tt][Tt][Pp][Ss]?:\/\/(?:[A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\])(?::(?:[0-9]{1,4}|[1-5][0-9]{4}|6[0-4][0-9]{3}|65[0-4][0-9]{2}|655[0-2][0-9]|6553[0-5]))?(?:[/?][A-Za-z0-9._~!$&'()*+,;=:@/%?-]*)?$/;
const Url = z.string().trim().min(1).max(2000).regex(WEBHOOK_URL, 'must be an http(s) URL without user-info or a fragment')
  .meta({ format: 'uri', description: 'https outside development; its host must be, and resolve only to, global unicast addresses (else 422 WEBHOOK_URL_REFUSED)' });

export const CreateWebhookInput = z.object({ url: Url, eventTypes: EventTypeList, active: z.boolean().default(true) });
/** A change must change something: `{}` is refused (it would be an UPDATE with nothing to set). */
export const UpdateWebhookInput = atLeastOneField(z.object({ url: Url.optional(), eventTypes: EventTypeList.optional(), active: z.boolean().optional() }));
/** A page of the delivery log, newest first. */
export const WebhookAttemptsInput = z.object(pageFields);
export const RedeliverWebhookInput = z.object({ eventId: z.string().regex(/^[1-9][0-9]{0,17}$/, 'an event id') });


/** https outside development, and no private, loopback or link-local address behind the name (unless WEBHOOK_ALLOW_PRIVATE). */
async function checkUrl(ctx: ServiceContext, url: string): Promise<void> {
  const rules = ctx.config.webhooks;
  const problem = urlProblem(url, rules);
  if (problem) throw validationError(`The URL ${problem}`, { problems: [{ field: 'url', message: `The URL ${problem}` }] });
  try {
    await checkTargetAddresses(url, rules);
  } catch (error) {
    const message = error instanceof WebhookTargetRefused ? error.message : `${new URL(url).hostname} does not resolve`;
    throw new AppError('WEBHOOK_URL_REFUSED', 422, `This URL cannot receive webhooks: ${message}`);
  }
}

const COLUMNS = ['id', 'shop as shopId', 'url', 'eventTypes', 'active', 'disabledReason', 'createdAt'] as const;

function viewOf(row: { id: number; shopId: number | null; url: string; eventTypes: string[]; active: boolean; disabledReason: string | null; createdAt: Date | string }): WebhookEndpointView {
  // The column is text, written only from WebhookDisabledReason.
  return { ...row, disabledReason: row.disabledReason as WebhookDisabledReason | null, createdAt: new Date(row.createdAt) };
}

async function ownEndpoint(ctx: ServiceContext, id: number, scope: Scope): Promise<WebhookEndpointView> {
  const row = await typedSql(ctx.em)
    .selectFrom('WebhookEndpoint')
    .select(COLUMNS)
    .where('id', '=', id)
    .where((eb) => (scope.shopId === null ? eb('shop', 'is', null) : eb('shop', '=', scope.shopId)))
    .executeTakeFirst();
  if (!row) throw notFound('Webhook endpoint', { id });
  return viewOf(row);
}

export const createWebhookEndpointRefusals = refusals('WEBHOOK_URL_REFUSED');

export async function createWebhookEndpoint(ctx: ServiceContext, input: unknown, door: WebhookDoor = 'caller'): Promise<WebhookEndpointView> {
  const scope = scopeOf(ctx, door);
  const data = parseInput(CreateWebhookInput, input ?? {});
  await checkUrl(ctx, data.url);
  const secret = newWebhookSecret();
  const [{ id }] = await inTransaction(ctx, (tx) =>
    auditedWrite(tx, { type: 'WebhookEndpoint', createdId: ([row]) => row.id }, () =>
      tx.em.execute<{ id: number }[]>(
        'insert into webhook_endpoint (shop_id, url, event_types, active, secret, created_at) values (?, ?, ?::text[], ?, ?, now()) returning id',
        [scope.shopId, data.url, textArray(data.eventTypes), data.active, secret],
      ),
    ),
  );
  const row = await typedSql(ctx.em).selectFrom('WebhookEndpoint').select(COLUMNS).where('id', '=', id).executeTakeFirstOrThrow();
  return { ...viewOf(row), secret };
}

/** The caller's endpoints, a page at a time (oldest first), as every list is paged (docs/api.md, "Conventions"). */
export async function listWebhookEndpoints(ctx: ServiceContext, input: unknown, door: WebhookDoor = 'caller'): Promise<Page<WebhookEndpointView>> {
  const scope = scopeOf(ctx, door);
  const paging = parseInput(PageQuery, input ?? {});
  const endpoints = typedSql(ctx.em)
    .selectFrom('WebhookEndpoint')
    .where((eb) => (scope.shopId === null ? eb('shop', 'is', null) : eb('shop', '=', scope.shopId)));
  const rows = await endpoints
    .select([...COLUMNS, sql<number>`(count(*) over ())::int`.as('total')])
    .orderBy('id')
    .limit(paging.pageSize)
    .offset((paging.page - 1) * paging.pageSize)
    .execute();
  return pageFrom(rows, paging, ({ total: _total, ...row }) => viewOf(row), async () => (await endpoints.select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow()).n);
}

export const updateWebhookEndpointRefusals = refusals('WEBHOOK_URL_REFUSED', 'NOT_FOUND');

/** Changes the URL, the types or the active flag; turning an endpoint on again forgets why it was off. */
export async function updateWebhookEndpoint(ctx: ServiceContext, endpointId: unknown, input: unknown, door: WebhookDoor = 'caller'): Promise<WebhookEndpointView> {
  const scope = scopeOf(ctx, door);
  // A path segment over REST: anything but an id is refused, never a NaN in SQL.
  const id = parseInput(idParam, endpointId);
  const data = parseInput(UpdateWebhookInput, input ?? {});
  await ownEndpoint(ctx, id, scope);
  if (data.url !== undefined) await checkUrl(ctx, data.url);
  return inTransaction(ctx, async (tx) => {
    const db = typedSql(tx.em);
    const row = await auditedWrite(tx, { type: 'WebhookEndpoint', id }, () =>
      db
        .updateTable('WebhookEndpoint')
        .set({
          ...(data.url === undefined ? {} : { url: data.url }),
          ...(data.eventTypes === undefined ? {} : { eventTypes: data.eventTypes }),
          ...(data.active === undefined ? {} : data.active ? { active: true, disabledReason: null, failingSince: null } : { active: false, disabledReason: WebhookDisabledReason.Operator }),
        })
        .where('id', '=', id)
        .returning(COLUMNS)
        .executeTakeFirstOrThrow(),
    );
    if (data.active === false) {
      await db.updateTable('WebhookDelivery').set({ state: 'cancelled' }).where('endpoint', '=', id).where('state', '=', 'pending').execute();
    }
    return viewOf(row);
  });
}

export const deleteWebhookEndpointRefusals = refusals('NOT_FOUND');

export async function deleteWebhookEndpoint(ctx: ServiceContext, endpointId: unknown, door: WebhookDoor = 'caller'): Promise<boolean> {
  const scope = scopeOf(ctx, door);
  // A path segment over REST: anything but an id is refused, never a NaN in SQL.
  const id = parseInput(idParam, endpointId);
  await ownEndpoint(ctx, id, scope);
  await inTransaction(ctx, (tx) => auditedWrite(tx, { type: 'WebhookEndpoint', id }, () => typedSql(tx.em).deleteFrom('WebhookEndpoint').where('id', '=', id).execute()));
  return true;
}

export const rotateWebhookSecretRefusals = refusals('NOT_FOUND');

/**
 * A new secret, shown once. The previous one keeps signing, as a second signature, for
 * WEBHOOK_SECRET_OVERLAP_SECONDS, so the receiver can switch without losing a delivery.
 */
export async function rotateWebhookSecret(ctx: ServiceContext, endpointId: unknown, door: WebhookDoor = 'caller'): Promise<WebhookEndpointView> {
  const scope = scopeOf(ctx, door);
  // A path segment over REST: anything but an id is refused, never a NaN in SQL.
  const id = parseInput(idParam, endpointId);
  const view = await ownEndpoint(ctx, id, scope);
  const secret = newWebhookSecret();
  const until = new Date(Date.now() + ctx.config.webhooks.secretOverlapSeconds * 1000);
  await inTransaction(ctx, (tx) =>
    auditedWrite(tx, { type: 'WebhookEndpoint', id }, () =>
      tx.em.execute('update webhook_endpoint set previous_secret = secret, previous_secret_until = ?, secret = ? where id = ?', [until, secret, id]),
    ),
  );
  return { ...view, secret };
}


export const webhookAttemptsRefusals = refusals('NOT_FOUND');

/** The delivery log of an endpoint, newest first: each attempt's time, status, latency and first bytes of the answer. */
export async function webhookAttempts(ctx: ServiceContext, endpointId: unknown, input: unknown, door: WebhookDoor = 'caller'): Promise<Page<WebhookAttemptView>> {
  const scope = scopeOf(ctx, door);
  // A path segment over REST: anything but an id is refused, never a NaN in SQL.
  const id = parseInput(idParam, endpointId);
  await ownEndpoint(ctx, id, scope);
  const paging = parseInput(WebhookAttemptsInput, input ?? {});
  const rows = await ctx.em.execute<{ id: string; delivery_id: string | null; event_id: string | null; attempted_at: string; status_code: number | null; latency_ms: number; error: string | null; response_head: string | null; total: number }[]>(
    `select a.id::text as id, a.delivery_id::text as delivery_id, d.position::text as event_id, a.attempted_at, a.status_code, a.latency_ms, a.error, a.response_head,
            (count(*) over ())::int as total
       from webhook_attempt a left join webhook_delivery d on d.id = a.delivery_id
      where a.endpoint_id = ? order by a.id desc limit ? offset ?`,
    [id, paging.pageSize, (paging.page - 1) * paging.pageSize],
  );
  const countAll = async () => (await ctx.em.execute<{ n: number }[]>('select count(*)::int as n from webhook_attempt where endpoint_id = ?', [id]))[0].n;
  return pageFrom(rows, paging, (r) => ({
    id: r.id,
    deliveryId: r.delivery_id,
    eventId: r.event_id,
    attemptedAt: new Date(r.attempted_at),
    statusCode: r.status_code,
    latencyMs: r.latency_ms,
    error: r.error,
    responseHead: r.response_head,
  }), countAll);
}

export const redeliverWebhookEventRefusals = refusals('NOT_FOUND');

/**
 * Sends one stored event to the endpoint again, now, with fresh retries: the event must be one the
 * endpoint may receive (its shop's, for a shop's endpoint) and still kept.
 */
export async function redeliverWebhookEvent(ctx: ServiceContext, endpointId: unknown, input: unknown, door: WebhookDoor = 'caller'): Promise<boolean> {
  const scope = scopeOf(ctx, door);
  // A path segment over REST: anything but an id is refused, never a NaN in SQL.
  const id = parseInput(idParam, endpointId);
  const endpoint = await ownEndpoint(ctx, id, scope);
  const { eventId } = parseInput(RedeliverWebhookInput, input ?? {});
  const [row] = await inTransaction(ctx, (tx) =>
    auditedWrite(tx, { type: 'WebhookDelivery', createdId: (rows) => rows[0]?.id ?? 0 }, () =>
      tx.em.execute<{ id: string }[]>(
        `insert into webhook_delivery (endpoint_id, event_id, position, state, attempts, next_attempt_at, created_at)
     select ?, e.id, e.position, 'pending', 0, now(), now() from event e
      where e.position = ?::bigint and (?::int is null or e.shop_ids @> array[?::int])
     on conflict (endpoint_id, event_id) do update set state = 'pending', attempts = 0, next_attempt_at = now(), lease_until = null
      where webhook_delivery.state <> 'delivering'
     returning id::text as id`,
        [id, eventId, endpoint.shopId, endpoint.shopId],
      ),
    ),
  );
  if (!row) throw notFound('Event', {});
  ctx.events.deliveriesWritten();
  return true;
}

export const pingWebhookEndpointRefusals = refusals('NOT_FOUND');

/** Sends a `webhook.ping` message to the endpoint now (signed like a delivery) and answers the logged attempt. */
export async function pingWebhookEndpoint(ctx: ServiceContext, endpointId: unknown, door: WebhookDoor = 'caller'): Promise<WebhookAttemptView> {
  const scope = scopeOf(ctx, door);
  // A path segment over REST: anything but an id is refused, never a NaN in SQL.
  const id = parseInput(idParam, endpointId);
  await ownEndpoint(ctx, id, scope);
  return sendPing(ctx, id);
}
