import type { UpdateObject } from 'kysely';
import { conflict } from '../../errors.js';
import { typedSql, type Database } from '../../db/typed-sql.js';
import { DisputeStatus } from '../../entities/dispute.entity.js';
import type { ServiceContext } from '../../shared/context.js';
import { auditedWrite } from '../../shared/audit.js';

/**
 * The one owner of a dispute's status (test/ownership.test.ts): which moves exist, and the move as
 * one conditional update, so however many admins rule at once exactly one ruling is applied and
 * every other learns the state it found.
 */
const MOVES: Record<'refund' | 'uphold', { from: DisputeStatus; to: DisputeStatus }> = {
  refund: { from: DisputeStatus.Open, to: DisputeStatus.Refunded },
  uphold: { from: DisputeStatus.Open, to: DisputeStatus.Upheld },
};

export type DisputeMove = keyof typeof MOVES;

/**
 * Moves the dispute, or answers 409 DISPUTE_WRONG_STATE with the state it is in. A ruled dispute is
 * never ruled again, even the same way: the second admin must learn that someone else ruled (a
 * repeated refund ruling would pay twice).
 */
export async function moveDispute(tx: ServiceContext, disputeId: number, move: DisputeMove, set: Omit<UpdateObject<Database, 'Dispute'>, 'status'>): Promise<void> {
  const { from, to } = MOVES[move];
  const db = typedSql(tx.em);
  const moved = await auditedWrite(tx, { type: 'Dispute', id: disputeId }, () =>
    db.updateTable('Dispute').set({ ...set, status: to }).where('id', '=', disputeId).where('status', '=', from).returning('id').executeTakeFirst(),
  );
  if (moved) return;
  const { status } = await db.selectFrom('Dispute').select('status').where('id', '=', disputeId).executeTakeFirstOrThrow();
  refuseUnlessMovable({ id: disputeId, status }, move);
}

/** 409 DISPUTE_WRONG_STATE unless the dispute is where `move` starts (checked before the money moves). */
export function refuseUnlessMovable({ id: disputeId, status }: { id: number; status: DisputeStatus }, move: DisputeMove): void {
  const { from, to } = MOVES[move];
  if (status === from) return;
  throw conflict('DISPUTE_WRONG_STATE', `This dispute is ${status}; only an open dispute can be ${to}`, { dispute_id: disputeId, status, expected: [from] });
}
