import { sql } from 'kysely';
import { preparedQuery } from './prepared-queries.js';

/**
 * Marks that a user wrote: their reads stay on the primary for READ_YOUR_WRITES_MS from now, in
 * every server process (the token lookup reads it back: auth.repository.ts). Only with replicas
 * (read-routing.ts).
 */
export const noteUserWrite = preparedQuery({
  name: 'note_user_write',
  examples: [{}],
  build: (db, _shape: object, v: { userId: number }) =>
    db
      .updateTable('User')
      .set({ lastWriteAt: sql<Date>`clock_timestamp()` })
      .where('id', '=', v.userId),
});
