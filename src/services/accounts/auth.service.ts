import { createHash, randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import type { EntityManager } from '@mikro-orm/postgresql';
import { AppError } from '../../errors.js';
import { User, Role } from '../../entities/user.entity.js';
import type { Actor, Membership, ServiceContext } from '../../shared/context.js';
import { actingFor } from '../../shared/acting-shop.js';
import type { ShopRole } from '../../entities/shop-membership.entity.js';
import { inTransaction } from '../../shared/transaction.js';
import { requireUser } from '../../shared/guards.js';
import { heldPermissions } from '../../shared/permissions.js';
import { emailAddress, parseInput, NOT_BLANK, z } from '../../shared/validate.js';
import { hashPassword, verifyPassword, verifyNoAccount } from './password.js';
import { unthrottled, type AuthThrottle } from '../../shared/auth-throttle.js';
import { issueDeviceToken, verifiedDevice } from '../../shared/device-token.js';
import { createZeroBalances } from './ledger.service.js';
import { perConnection } from '../../db/per-connection.js';
import { typedSql } from '../../db/typed-sql.js';
import { toDate } from '../../shared/values.js';
import { StatementCombiner } from '../../db/statement-combiner.js';
import { refusals } from '../../error-codes.js';
import { signInRefusalCount } from '../../metrics.js';
import { insertAuthToken, tokensByHash } from './auth.repository.js';
import type { MembershipView, SessionView, UserView } from './user-view.js';

const email = emailAddress;
export const RegisterInput = z.strictObject({
  email,
  password: z.string().min(8, 'must be at least 8 characters').max(200),
  displayName: z.string().trim().regex(NOT_BLANK, 'must not be blank').max(120),
});
export const LoginInput = z.strictObject({
  email,
  password: z.string().min(1).max(200),
  /** The device token of an earlier sign-in of this email on this client; one that does not check out is ignored. */
  deviceToken: z.string().max(200).nullish(),
});

/** Attempts are counted per address; a call with none (not over HTTP) shares one bucket. */
const clientOf = (ctx: ServiceContext) => ctx.client ?? { ip: 'unknown' };

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

export function toUserView(user: User, memberships: MembershipView[], shopId = memberships.length === 1 ? memberships[0].shopId : null): UserView {
  const platformRole = user.platformRole ?? null;
  const shopRole = memberships.find((m) => m.shopId === shopId)?.role ?? null;
  return {
    id: user.id,
    email: user.email,
    displayName: user.displayName,
    role: user.role,
    shopId,
    platformRole,
    memberships,
    permissions: heldPermissions({ role: user.role, shopRole, platformRole }),
    createdAt: user.createdAt,
  };
}

/**
 * A user's memberships with their shops' names, by shop id; only shop operators have any (a customer
 * or staff account skips the query).
 */
async function membershipsOf(em: EntityManager, user: User): Promise<MembershipView[]> {
  if (user.role !== Role.ShopOperator) return [];
  return typedSql(em)
    .selectFrom('ShopMembership as m')
    .innerJoin('Shop as s', 's.id', 'm.shop')
    .select(['m.shop as shopId', 'm.role', 's.name as shopName'])
    .where('m.user', '=', user.id)
    .orderBy('m.shop')
    .execute();
}

/**
 * A new bearer token for `user`, in one INSERT: inside the caller's transaction (registration), or
 * committing on its own (login), which is one round trip instead of three while logins are flooded.
 */
async function issueToken(ctx: ServiceContext, em: EntityManager, user: User): Promise<SessionView> {
  const token = randomBytes(32).toString('base64url');
  const expiresAt = new Date(Date.now() + ctx.config.tokenTtlHours * 3600_000);
  await insertAuthToken.run(em, {}, { tokenHash: hashToken(token), userId: user.id, expiresAt });
  return { token, expiresAt, deviceToken: issueDeviceToken(ctx.config.deviceTokens, user.email), user: toUserView(user, await membershipsOf(em, user)) };
}

/** Runs a sign-in or registration; a refusal is answered after the throttle's hold. */
async function throttled<T>(ctx: ServiceContext, work: (throttle: AuthThrottle) => Promise<T>): Promise<T> {
  const throttle = ctx.authThrottle ?? unthrottled;
  try {
    return await work(throttle);
  } catch (error) {
    await throttle.holdRefusal(error);
    throw error;
  }
}

export const registerRefusals = refusals('EMAIL_TAKEN', 'RATE_LIMITED', 'SERVICE_BUSY');

/** Creates a customer account with its zero balance rows and signs it in, in one transaction. */
export function register(ctx: ServiceContext, input: unknown): Promise<SessionView> {
  const data = parseInput(RegisterInput, input);
  return throttled(ctx, (throttle) => registerThrottled(ctx, throttle, data));
}

async function registerThrottled(ctx: ServiceContext, throttle: AuthThrottle, data: z.output<typeof RegisterInput>): Promise<SessionView> {
  const admission = throttle.admitRegistration(clientOf(ctx), data.email);
  const passwordHash = await throttle.hashing.run(admission.lane, () => hashPassword(data.password)).catch((error: unknown) => {
    admission.abandoned();
    throw error;
  });
  // A taken email fails at the unique key (`app_user_email_unique`), which answers EMAIL_TAKEN
  // (src/errors.ts), concurrent registrations of one email included.
  return inTransaction(ctx, async (tx) => {
    const user = tx.em.create(User, {
      email: data.email,
      passwordHash,
      displayName: data.displayName,
      role: Role.Customer,
    });
    await tx.em.flush();
    await createZeroBalances(tx.em, [user.id]);
    return issueToken(tx, tx.em, user);
  });
}

export const loginRefusals = refusals('INVALID_CREDENTIALS', 'ACCOUNT_DISABLED', 'RATE_LIMITED', 'SERVICE_BUSY');

/**
 * Signs in. Unknown email and wrong password give the same answer and take the same time (on an
 * idle server; under a flood an unknown email waits in the last lane, see `AuthThrottle`); an
 * unknown email's check is only a wait (`verifyNoAccount`).
 */
export function login(ctx: ServiceContext, input: unknown): Promise<SessionView> {
  const data = parseInput(LoginInput, input);
  return throttled(ctx, (throttle) => loginThrottled(ctx, throttle, data)).catch((error: unknown) => {
    signInRefusalCount.inc({ reason: error instanceof AppError && loginRefusals.includes(error.code) ? error.code : 'other' });
    throw error;
  });
}

async function loginThrottled(ctx: ServiceContext, throttle: AuthThrottle, data: z.output<typeof LoginInput>): Promise<SessionView> {
  const device = verifiedDevice(ctx.config.deviceTokens, data.email, data.deviceToken);
  // Counted in memory before any work: an attempt over a limit costs no statement and no hash.
  const admission = throttle.admitLogin({ ...clientOf(ctx), email: data.email, device });
  let user: User | null;
  let ok: boolean;
  try {
    if (admission.delayMs > 0) await sleep(admission.delayMs);
    user = await ctx.em.findOne(User, { email: data.email }, { populate: ['passwordHash'] });
    // A clean record earns its lane only for an account that exists: made-up emails wait last.
    const lane = admission.lane === 'clean' && !user ? 'normal' : admission.lane;
    const account = user;
    ok = await throttle.hashing.run(lane, () => (account ? verifyPassword(data.password, account.passwordHash) : verifyNoAccount(data.password)));
  } catch (error) {
    admission.abandoned();
    throw error;
  }
  if (!user || !ok) {
    admission.failed();
    throw new AppError('INVALID_CREDENTIALS', 401, 'Email or password is not correct');
  }
  admission.succeeded();
  // Told only to whoever knows the password: the account exists, and the platform has disabled it.
  // 401 like INVALID_CREDENTIALS: a sign-in refused about its input (403 stays the role's answer).
  if (user.disabledAt) throw new AppError('ACCOUNT_DISABLED', 401, 'This account has been disabled by the platform; contact support');
  return issueToken(ctx, ctx.em, user);
}

/** Revokes the token this request was made with. */
export async function logout(ctx: ServiceContext): Promise<boolean> {
  const actor = requireUser(ctx);
  await typedSql(ctx.em)
    .updateTable('AuthToken')
    .set({ revokedAt: sql<Date>`now()` })
    .where('tokenHash', '=', actor.tokenHash)
    .where('revokedAt', 'is', null)
    .execute();
  return true;
}

export async function me(ctx: ServiceContext): Promise<UserView> {
  const actor = requireUser(ctx);
  const user = await ctx.em.findOneOrFail(User, actor.userId);
  // The memberships as this request read them with its token (a role changed since counts already),
  // with their shops' names.
  const shopIds = actor.memberships.map((m) => m.shopId);
  const shops = shopIds.length === 0 ? [] : await typedSql(ctx.em).selectFrom('Shop').select(['id', 'name']).where('id', 'in', shopIds).execute();
  const names = new Map(shops.map((s) => [s.id, s.name]));
  return toUserView(user, actor.memberships.map((m) => ({ ...m, shopName: names.get(m.shopId) ?? '' })), actor.shopId);
}

export type Authentication =
  /** `lastWriteAt`: when a use case of the user's last wrote (kept only with read replicas: src/db/read-routing.ts). */
  | { actor: Actor; problem: null; lastWriteAt?: Date | null }
  | { actor: null; problem: 'TOKEN_INVALID' | 'TOKEN_EXPIRED' | null; lastWriteAt?: undefined };

/**
 * Of `tokenHashes`, those no longer valid and why (revoked or unknown: TOKEN_INVALID; past their
 * lifetime: TOKEN_EXPIRED), in one query: the subscription server checks its open connections with
 * it, so a logout or an expiry ends them.
 */
export async function invalidTokens(em: EntityManager, tokenHashes: string[]): Promise<Map<string, 'TOKEN_INVALID' | 'TOKEN_EXPIRED'>> {
  const invalid = new Map<string, 'TOKEN_INVALID' | 'TOKEN_EXPIRED'>(tokenHashes.map((h) => [h, 'TOKEN_INVALID']));
  if (tokenHashes.length === 0) return invalid;
  const rows = await typedSql(em)
    .selectFrom('AuthToken as t')
    .innerJoin('User as u', 'u.id', 't.user')
    .select((eb) => ['t.tokenHash', eb('t.expiresAt', '<=', sql<Date>`now()`).as('expired')])
    .where('t.tokenHash', 'in', tokenHashes)
    .where('t.revokedAt', 'is', null)
    .where('u.disabledAt', 'is', null)
    .execute();
  for (const row of rows) {
    if (row.expired) invalid.set(row.tokenHash, 'TOKEN_EXPIRED');
    else invalid.delete(row.tokenHash);
  }
  return invalid;
}

/**
 * Resolves a bearer token to an actor, acting for the shop `shopHeader` names (the `X-Shop-Id`
 * header; shared/acting-shop.ts). Every authenticated request starts here, so under load the
 * lookups of concurrent requests are combined into one query (`StatementCombiner`): one lookup at a
 * time per process, the requests arriving meanwhile answered together by the next.
 */
export async function authenticate(em: EntityManager, token: string | undefined, shopHeader?: string): Promise<Authentication> {
  if (!token) return { actor: null, problem: null };
  const tokenHash = hashToken(token);
  const row = await tokenLookups(em).submit({ em, tokenHash });
  // A disabled account's tokens were revoked when it was disabled; checking the account too covers a
  // token that a sign-in racing the move issued after that revocation.
  if (!row || row.revokedAt !== null || row.disabledAt !== null) return { actor: null, problem: 'TOKEN_INVALID' };
  if (toDate(row.expiresAt).getTime() <= Date.now()) return { actor: null, problem: 'TOKEN_EXPIRED' };
  const actor = actingFor({ userId: row.userId, role: row.role, platformRole: row.platformRole ?? null, memberships: row.memberships.map(membershipOf), tokenHash }, shopHeader);
  return { actor, problem: null, lastWriteAt: row.lastWriteAt === null ? null : toDate(row.lastWriteAt) };
}

const membershipOf = (text: string): Membership => {
  const colon = text.indexOf(':');
  return { shopId: Number(text.slice(0, colon)), role: text.slice(colon + 1) as ShopRole };
};

type TokenRow = Awaited<ReturnType<typeof tokensByHash.run>>[number];

/** Concurrent lookups share one statement (every request runs one: docs/performance.md). */
const tokenLookups = perConnection(
  () =>
    new StatementCombiner<{ em: EntityManager; tokenHash: string }, TokenRow | undefined>(
      async (lookups) => {
        const rows = await tokensByHash.run(lookups[0].em, {}, { hashes: lookups.map((l) => l.tokenHash) });
        const byHash = new Map(rows.map((r) => [r.tokenHash, r]));
        return lookups.map((l) => byHash.get(l.tokenHash));
      },
      { maxInFlight: 1, maxBatch: 100 },
    ),
);
