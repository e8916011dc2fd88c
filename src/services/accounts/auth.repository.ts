import { sql } from 'kysely';
import { asText, preparedQuery } from '../../db/prepared-queries.js';

/** Every request looks its bearer token up (docs/performance.md): one prepared statement for a batch of them. */
export const tokensByHash = preparedQuery({
  name: 'tokens_by_hash',
  examples: [{}],
  build: (db, _shape: object, v: { hashes: string[] }) =>
    db
      .selectFrom('AuthToken as t')
      .innerJoin('User as u', 'u.id', 't.user')
      .select(['t.tokenHash as tokenHash', 'u.id as userId', 'u.role as role', 'u.platformRole as platformRole'])
      // The user's memberships as `shopId:role` texts: the actor is read per request, so a changed role counts at once.
      .select(sql<string[]>`array(select m.shop_id || ':' || m.role from shop_membership m where m.user_id = u.id order by m.shop_id)`.as('memberships'))
      .select((eb) => [asText(eb.ref('t.expiresAt')).as('expiresAt'), asText(eb.ref('t.revokedAt')).as('revokedAt'), asText(eb.ref('u.lastWriteAt')).as('lastWriteAt'), asText(eb.ref('u.disabledAt')).as('disabledAt')])
      .where((eb) => eb('t.tokenHash', '=', eb.fn.any(eb.val(v.hashes)))),
});

/** Each sign-in stores its token's hash: one statement, while logins may be flooded. */
export const insertAuthToken = preparedQuery({
  name: 'insert_auth_token',
  examples: [{}],
  build: (db, _shape: object, v: { tokenHash: string; userId: number; expiresAt: Date }) =>
    db
      .insertInto('AuthToken')
      .columns(['tokenHash', 'user', 'expiresAt', 'createdAt'])
      .expression(db.selectNoFrom((eb) => [eb.val(v.tokenHash).as('tokenHash'), eb.val(v.userId).as('user'), eb.val(v.expiresAt).as('expiresAt'), sql<Date>`now()`.as('createdAt')])),
});
