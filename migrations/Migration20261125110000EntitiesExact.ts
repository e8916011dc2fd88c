import { Migration } from '@mikro-orm/migrations';

/**
 * The entities describe the schema exactly (`test/entity-schema.test.ts` compares the catalog a
 * migrated database has with the one the entities create). One definition differed in form only:
 * `coupon_template_window_valid` was written with `between`, which PostgreSQL stores as a nested
 * AND that no other spelling reproduces and that MikroORM's comparator cannot match; it is
 * re-created as the entity writes it (same rows accepted).
 */
export class Migration20261125110000EntitiesExact extends Migration {
  override name = 'Migration20261125110000EntitiesExact';

  override async up(): Promise<void> {
    this.addSql(`alter table "coupon_template" drop constraint "coupon_template_window_valid", add constraint "coupon_template_window_valid" check ((valid_days is null and valid_from is not null and valid_until is not null and valid_until > valid_from) or ((valid_days >= 1 and valid_days <= 3650) and valid_from is null and valid_until is null))`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "coupon_template" drop constraint "coupon_template_window_valid", add constraint "coupon_template_window_valid" check ((valid_days is null and valid_from is not null and valid_until is not null and valid_until > valid_from) or (valid_days between 1 and 3650 and valid_from is null and valid_until is null))`);
  }
}
