import { sql } from 'kysely';
import { conflict, notFound } from '../../errors.js';
import { refusals } from '../../error-codes.js';
import { typedSql } from '../../db/typed-sql.js';
import { Role } from '../../entities/user.entity.js';
import type { ServiceContext } from '../../shared/context.js';
import { requirePlatformPermission } from '../../shared/guards.js';
import { Permission } from '../../shared/permissions.js';
import { inTransaction } from '../../shared/transaction.js';
import { id, NOT_BLANK, parseInput, z } from '../../shared/validate.js';
import { idPage, NameSort, nameSortOrder, pageFields, pageOf, type Page } from '../../shared/pagination.js';
import { containsPattern, opt } from '../../shared/values.js';
import { auditedWrite } from '../../shared/audit.js';
import { count, id as viewId, timestamp } from '../../shared/view-fields.js';

/**
 * Customers as the platform sees them (issue 41, item 4): search, and disable or re-enable an
 * account. A disabled account cannot sign in (ACCOUNT_DISABLED), its bearer tokens are revoked in
 * the same transaction, and its open websockets close at the subscription server's next check
 * (SUBSCRIPTION_RECHECK_SECONDS; src/server/subscriptions.ts), as after a logout. Staff accounts
 * (operators, admins) are not customers: they are neither listed nor disabled here.
 */

export enum CustomerState {
  Active = 'active',
  Disabled = 'disabled',
}

export const CustomerListInput = z.object({
  ...pageFields,
  /** Part of the email or the display name, or an account id. */
  q: z.string().trim().max(200).optional(),
  state: z.enum(CustomerState).optional(),
  /** The table's order: newest first when left out, or by display name (app_user_customer_name_idx). */
  sort: z.enum(NameSort).optional(),
});
const CustomerRef = z.strictObject({ customerId: id });
export const DisableCustomerInput = CustomerRef.extend({ reason: z.string().trim().regex(NOT_BLANK, 'must not be blank').max(500) });

/** A customer's state (GraphQL's CustomerState, whose values a coupon template's status shares). */
export const customerState = z.enum(CustomerState);

/** A customer account as the platform sees it: REST publishes this schema and GraphQL's type is made from it. */
export const CustomerView = z
  .strictObject({
    id: viewId,
    email: z.string(),
    displayName: z.string(),
    state: customerState,
    disabledAt: timestamp.optional(),
    disabledReason: z.string().optional().describe('Why a platform admin disabled the account'),
    orderCount: count.describe('Every order the customer placed, in any state'),
    createdAt: timestamp,
  })
  .describe('A customer account as the platform sees it');
export type CustomerView = z.infer<typeof CustomerView>;

async function customerViews(ctx: ServiceContext, ids: number[]): Promise<CustomerView[]> {
  if (ids.length === 0) return [];
  const rows = await typedSql(ctx.em)
    .selectFrom('User as u')
    .select((eb) => [
      'u.id',
      'u.email',
      'u.displayName',
      'u.disabledAt',
      'u.disabledReason',
      'u.createdAt',
      eb.selectFrom('Order as o').select((o) => o.fn.countAll<number>().as('n')).whereRef('o.customer', '=', 'u.id').as('orderCount'),
    ])
    .where('u.id', 'in', ids)
    .execute();
  const byId = new Map<number, CustomerView>(
    rows.map((u) => [
      u.id,
      {
        id: u.id,
        email: u.email,
        displayName: u.displayName,
        state: u.disabledAt ? CustomerState.Disabled : CustomerState.Active,
        disabledAt: opt(u.disabledAt),
        disabledReason: opt(u.disabledReason),
        orderCount: Number(u.orderCount ?? 0),
        createdAt: u.createdAt,
      },
    ]),
  );
  return ids.map((i) => byId.get(i)).filter((c): c is CustomerView => c !== undefined);
}

/** Customers, newest first unless `sort` says otherwise: by part of the email or name (case-insensitive) or by id, and by state. */
export async function listCustomers(ctx: ServiceContext, input: unknown): Promise<Page<CustomerView>> {
  requirePlatformPermission(ctx, Permission.PlatformCustomersRead);
  const { q, state, sort, ...paging } = parseInput(CustomerListInput, input ?? {});
  let rows = typedSql(ctx.em).selectFrom('User').where('role', '=', Role.Customer);
  if (q) {
    const pattern = containsPattern(q);
    const asId = /^\d{1,9}$/.test(q) ? Number(q) : null;
    rows = rows.where((eb) => eb.or([eb('email', 'ilike', pattern), eb('displayName', 'ilike', pattern), ...(asId === null ? [] : [eb('id', '=', asId)])]));
  }
  if (state) rows = rows.where('disabledAt', state === CustomerState.Disabled ? 'is not' : 'is', null);
  const { by, direction } = nameSortOrder(sort, 'User.displayName');
  const { ids, total } = await idPage(rows, paging, direction, by);
  return pageOf(await customerViews(ctx, ids), paging, total);
}

export const getCustomerRefusals = refusals('NOT_FOUND');

export async function getCustomer(ctx: ServiceContext, input: unknown): Promise<CustomerView> {
  requirePlatformPermission(ctx, Permission.PlatformCustomersRead);
  const { customerId } = parseInput(CustomerRef, input);
  return (await customerViews(ctx, await existingCustomer(ctx, customerId)))[0];
}

async function existingCustomer(ctx: ServiceContext, customerId: number): Promise<number[]> {
  const found = await typedSql(ctx.em).selectFrom('User').select('id').where('id', '=', customerId).where('role', '=', Role.Customer).executeTakeFirst();
  if (!found) throw notFound('Customer', { customer_id: customerId });
  return [found.id];
}

/** 409 CUSTOMER_WRONG_STATE: the account is not in the state the move starts from. */
function wrongState(customerId: number, state: CustomerState, expected: CustomerState): never {
  throw conflict('CUSTOMER_WRONG_STATE', `This account is ${state}; only ${expected === CustomerState.Active ? 'an active' : 'a disabled'} account can be ${state === CustomerState.Active ? 'enabled' : 'disabled'}`, {
    customer_id: customerId,
    status: state,
    expected: [expected],
  });
}

export const disableCustomerRefusals = refusals('NOT_FOUND', 'CUSTOMER_WRONG_STATE');

/**
 * Disables an active customer account with a reason, by one conditional update (two admins at once:
 * one disables, the other learns it is disabled), and revokes every token it holds in the same
 * transaction.
 */
export async function disableCustomer(ctx: ServiceContext, input: unknown): Promise<CustomerView> {
  requirePlatformPermission(ctx, Permission.PlatformCustomersManage);
  const { customerId, reason } = parseInput(DisableCustomerInput, input);
  return inTransaction(ctx, async (tx) => {
    const db = typedSql(tx.em);
    await existingCustomer(tx, customerId);
    const moved = await auditedWrite(tx, { type: 'User', id: customerId }, () =>
      db.updateTable('User').set({ disabledAt: sql<Date>`now()`, disabledReason: reason }).where('id', '=', customerId).where('disabledAt', 'is', null).returning('id').executeTakeFirst(),
    );
    if (!moved) wrongState(customerId, CustomerState.Disabled, CustomerState.Active);
    await db.updateTable('AuthToken').set({ revokedAt: sql<Date>`now()` }).where('user', '=', customerId).where('revokedAt', 'is', null).execute();
    return (await customerViews(tx, [customerId]))[0];
  });
}

export const enableCustomerRefusals = refusals('NOT_FOUND', 'CUSTOMER_WRONG_STATE');

/** Enables a disabled account again: it may sign in anew (the revoked tokens stay revoked). */
export async function enableCustomer(ctx: ServiceContext, input: unknown): Promise<CustomerView> {
  requirePlatformPermission(ctx, Permission.PlatformCustomersManage);
  const { customerId } = parseInput(CustomerRef, input);
  return inTransaction(ctx, async (tx) => {
    await existingCustomer(tx, customerId);
    const moved = await auditedWrite(tx, { type: 'User', id: customerId }, () =>
      typedSql(tx.em).updateTable('User').set({ disabledAt: null, disabledReason: null }).where('id', '=', customerId).where('disabledAt', 'is not', null).returning('id').executeTakeFirst(),
    );
    if (!moved) wrongState(customerId, CustomerState.Active, CustomerState.Disabled);
    return (await customerViews(tx, [customerId]))[0];
  });
}
