import type { UpdateObject } from 'kysely';
import { conflict } from '../../errors.js';
import { typedSql, type Database } from '../../db/typed-sql.js';
import { ShopApplicationStatus } from '../../entities/shop-application.entity.js';
import type { ServiceContext } from '../../shared/context.js';
import { auditedWrite } from '../../shared/audit.js';

/**
 * The one owner of a shop application's status (test/ownership.test.ts): which moves exist, and the
 * move itself as one conditional update, so however many requests race for one application, exactly
 * one moves it and every other learns the state it found.
 */
const MOVES: Record<'approve' | 'reject' | 'withdraw', { from: ShopApplicationStatus; to: ShopApplicationStatus }> = {
  approve: { from: ShopApplicationStatus.Submitted, to: ShopApplicationStatus.Approved },
  reject: { from: ShopApplicationStatus.Submitted, to: ShopApplicationStatus.Rejected },
  withdraw: { from: ShopApplicationStatus.Submitted, to: ShopApplicationStatus.Withdrawn },
};

export type ApplicationMove = keyof typeof MOVES;

/**
 * Moves the application, or answers 409 SHOP_APPLICATION_WRONG_STATE with the state it is in. A
 * decided application is never decided again, even the same way: the second admin must learn that
 * someone else decided (unlike a repeated refund approval, nothing here is a harmless replay).
 */
export async function moveApplication(
  tx: ServiceContext,
  applicationId: number,
  move: ApplicationMove,
  set: Omit<UpdateObject<Database, 'ShopApplication'>, 'status'> = {},
): Promise<void> {
  const { from, to } = MOVES[move];
  const db = typedSql(tx.em);
  const moved = await auditedWrite(tx, { type: 'ShopApplication', id: applicationId }, () =>
    db.updateTable('ShopApplication').set({ ...set, status: to }).where('id', '=', applicationId).where('status', '=', from).returning('id').executeTakeFirst(),
  );
  if (moved) return;
  const { status } = await db.selectFrom('ShopApplication').select('status').where('id', '=', applicationId).executeTakeFirstOrThrow();
  refuseUnlessMovable({ id: applicationId, status }, move);
}

/** 409 SHOP_APPLICATION_WRONG_STATE unless the application is where `move` starts (checked before work that must not happen otherwise). */
export function refuseUnlessMovable({ id: applicationId, status }: { id: number; status: ShopApplicationStatus }, move: ApplicationMove): void {
  const { from, to } = MOVES[move];
  if (status === from) return;
  throw conflict('SHOP_APPLICATION_WRONG_STATE', `This application is ${status}; only a submitted application can be ${to}`, {
    application_id: applicationId,
    status,
    expected: [from],
  });
}
