import { Migration } from '@mikro-orm/migrations';

/**
 * `shop_application` (issue 41, shop onboarding): a customer's request to open a shop and its
 * lifecycle. Partial unique keys hold one open application per applicant and per slug; the admin
 * list reads by status, the applicant's by applicant, both newest first.
 */
export class Migration20261202300000ShopApplications extends Migration {
  override name = 'Migration20261202300000ShopApplications';

  override async up(): Promise<void> {
    this.addSql(`create table "shop_application" ("id" serial primary key, "applicant_id" int not null, "status" text not null default 'submitted', "legal_name" varchar(200) not null, "shop_name" varchar(120) not null, "slug" varchar(80) not null, "contact_name" varchar(120) not null, "contact_phone" varchar(40) not null, "contact_email" varchar(254) not null, "category_ids" int[] not null, "logo_url" varchar(500) null, "description" varchar(2000) null, "terms_accepted_at" timestamptz not null, "reject_reason" varchar(500) null, "shop_id" int null, "decided_by_id" int null, "created_at" timestamptz not null, "decided_at" timestamptz null, "withdrawn_at" timestamptz null)`);
    this.addSql(`create index "shop_application_applicant_id_index" on "shop_application" ("applicant_id", "id")`);
    this.addSql(`create index "shop_application_status_id_index" on "shop_application" ("status", "id")`);
    this.addSql(`create unique index "shop_application_one_open_per_applicant" on "shop_application" ("applicant_id") where status = 'submitted'`);
    this.addSql(`create unique index "shop_application_one_open_per_slug" on "shop_application" ("slug") where status = 'submitted'`);
    this.addSql(`alter table "shop_application" add constraint "shop_application_status_check" check ("status" in ('submitted', 'approved', 'rejected', 'withdrawn'))`);
    this.addSql(`alter table "shop_application" add constraint "shop_application_rejected_has_reason" check ((status = 'rejected') = (reject_reason is not null))`);
    this.addSql(`alter table "shop_application" add constraint "shop_application_approved_has_shop" check ((status = 'approved') = (shop_id is not null))`);
    this.addSql(`alter table "shop_application" add constraint "shop_application_applicant_id_foreign" foreign key ("applicant_id") references "app_user" ("id")`);
    this.addSql(`alter table "shop_application" add constraint "shop_application_shop_id_foreign" foreign key ("shop_id") references "shop" ("id") on delete set null`);
    this.addSql(`alter table "shop_application" add constraint "shop_application_decided_by_id_foreign" foreign key ("decided_by_id") references "app_user" ("id") on delete set null`);
  }

  override async down(): Promise<void> {
    this.addSql('drop table "shop_application"');
  }
}
