import { Migration } from '@mikro-orm/migrations';

/**
 * `saved_address` (issue 31): a customer's address book. One default per customer at most (partial
 * unique index); read by customer, newest first (the (user_id, id) index also serves the cascade).
 */
export class Migration20261126600000AddressBook extends Migration {
  override name = 'Migration20261126600000AddressBook';

  override async up(): Promise<void> {
    this.addSql(`create table "saved_address" ("id" serial primary key, "user_id" int not null, "recipient" varchar(60) not null, "phone" varchar(40) not null, "region" varchar(6) not null, "address" varchar(300) not null, "is_default" boolean not null default false, "created_at" timestamptz not null)`);
    this.addSql(`create index "saved_address_user_id_id_index" on "saved_address" ("user_id", "id")`);
    this.addSql(`create unique index "saved_address_one_default" on "saved_address" ("user_id") where is_default`);
    this.addSql(`alter table "saved_address" add constraint "saved_address_user_id_foreign" foreign key ("user_id") references "app_user" ("id") on delete cascade`);
  }

  override async down(): Promise<void> {
    this.addSql('drop table "saved_address"');
  }
}
