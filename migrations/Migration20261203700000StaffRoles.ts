import { Migration } from '@mikro-orm/migrations';

/**
 * Staff with roles (issue 41, item 3): a user's place in a shop is a `shop_membership` row with a
 * shop role, instead of the one `app_user.shop_id` of a `shop_operator`; platform staff carry a
 * `platform_role`. Existing operators become owners of their shop and existing admins platform
 * admins, in this same migration, so no account loses what it could do.
 */
export class Migration20261203700000StaffRoles extends Migration {
  override name = 'Migration20261203700000StaffRoles';

  override async up(): Promise<void> {
    this.addSql(`create table "shop_membership" ("id" serial primary key, "user_id" int not null, "shop_id" int not null, "role" text not null, "created_at" timestamptz not null)`);
    this.addSql(`alter table "shop_membership" add constraint "shop_membership_user_shop_unique" unique ("user_id", "shop_id")`);
    this.addSql(`create index "shop_membership_shop_id_index" on "shop_membership" ("shop_id", "id")`);
    this.addSql(`alter table "shop_membership" add constraint "shop_membership_role_check" check ("role" in ('owner', 'manager', 'catalog', 'fulfilment', 'finance', 'support'))`);
    this.addSql(`alter table "shop_membership" add constraint "shop_membership_user_id_foreign" foreign key ("user_id") references "app_user" ("id") on delete cascade`);
    this.addSql(`alter table "shop_membership" add constraint "shop_membership_shop_id_foreign" foreign key ("shop_id") references "shop" ("id") on delete cascade`);
    this.addSql(`insert into "shop_membership" ("user_id", "shop_id", "role", "created_at") select "id", "shop_id", 'owner', now() from "app_user" where "role" = 'shop_operator' and "shop_id" is not null order by "id"`);

    this.addSql(`create table "member_invitation" ("id" serial primary key, "shop_id" int not null, "email" varchar(254) not null, "role" text not null, "token_hash" varchar(64) not null, "invited_by_id" int not null, "created_at" timestamptz not null, "expires_at" timestamptz not null, "accepted_at" timestamptz null, "accepted_by_id" int null, "revoked_at" timestamptz null)`);
    this.addSql(`alter table "member_invitation" add constraint "member_invitation_token_hash_unique" unique ("token_hash")`);
    this.addSql(`create index "member_invitation_shop_id_index" on "member_invitation" ("shop_id", "id")`);
    this.addSql(`alter table "member_invitation" add constraint "member_invitation_role_check" check ("role" in ('owner', 'manager', 'catalog', 'fulfilment', 'finance', 'support'))`);
    this.addSql(`alter table "member_invitation" add constraint "member_invitation_used_once" check (accepted_at is null or revoked_at is null)`);
    this.addSql(`alter table "member_invitation" add constraint "member_invitation_shop_id_foreign" foreign key ("shop_id") references "shop" ("id") on delete cascade`);
    this.addSql(`alter table "member_invitation" add constraint "member_invitation_invited_by_id_foreign" foreign key ("invited_by_id") references "app_user" ("id")`);
    this.addSql(`alter table "member_invitation" add constraint "member_invitation_accepted_by_id_foreign" foreign key ("accepted_by_id") references "app_user" ("id") on delete set null`);

    this.addSql(`alter table "app_user" add column "platform_role" text null`);
    this.addSql(`update "app_user" set "platform_role" = 'admin' where "role" = 'platform_admin'`);
    this.addSql(`alter table "app_user" add constraint "app_user_platform_role_check" check ("platform_role" in ('admin', 'finance', 'support', 'content'))`);
    this.addSql(`alter table "app_user" add constraint "app_user_staff_has_platform_role" check ((role = 'platform_admin') = (platform_role is not null))`);
    this.addSql(`alter table "app_user" drop constraint "app_user_operator_has_shop"`);
    this.addSql(`alter table "app_user" drop constraint "app_user_shop_id_foreign"`);
    this.addSql(`drop index "app_user_shop_id_index"`);
    this.addSql(`alter table "app_user" drop column "shop_id"`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "app_user" add column "shop_id" int null`);
    // An operator goes back to one shop: the first it owns (else the first it belongs to).
    this.addSql(`update "app_user" u set "shop_id" = (select m."shop_id" from "shop_membership" m where m."user_id" = u."id" order by (m."role" = 'owner') desc, m."id" limit 1) where u."role" = 'shop_operator'`);
    this.addSql(`update "app_user" set "role" = 'customer' where "role" = 'shop_operator' and "shop_id" is null`);
    this.addSql(`create index "app_user_shop_id_index" on "app_user" ("shop_id")`);
    this.addSql(`alter table "app_user" add constraint "app_user_shop_id_foreign" foreign key ("shop_id") references "shop" ("id") on delete set null`);
    this.addSql(`alter table "app_user" add constraint "app_user_operator_has_shop" check ((role = 'shop_operator') = (shop_id is not null))`);
    this.addSql(`alter table "app_user" drop constraint "app_user_staff_has_platform_role"`);
    this.addSql(`alter table "app_user" drop constraint "app_user_platform_role_check"`);
    this.addSql(`alter table "app_user" drop column "platform_role"`);
    this.addSql(`drop table "member_invitation"`);
    this.addSql(`drop table "shop_membership"`);
  }
}
