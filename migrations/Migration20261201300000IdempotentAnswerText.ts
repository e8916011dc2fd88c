import { Migration } from '@mikro-orm/migrations';

/**
 * An Idempotency-Key's answer is kept as JSON text (`json`): `jsonb` stores an object's keys in its
 * own order, so a replayed answer came back with its keys moved, where the first answer is promised
 * byte for byte (docs/api.md, "Retries").
 */
export class Migration20261201300000IdempotentAnswerText extends Migration {
  override name = 'Migration20261201300000IdempotentAnswerText';

  override async up(): Promise<void> {
    this.addSql('alter table "idempotency_key" alter column "response" type json using "response"::json');
  }

  override async down(): Promise<void> {
    this.addSql('alter table "idempotency_key" alter column "response" type jsonb using "response"::jsonb');
  }
}
