import { Migration } from '@mikro-orm/migrations';

/**
 * The platform's own staff (issue 41, "platform roles likewise"): invitations to join it with a
 * platform role, by a one-time link as a shop's, and the moment an account joined it. Staff made
 * before this migration count from their account's creation.
 */
export class Migration20261204000000StaffInvitations extends Migration {
  override name = 'Migration20261204000000StaffInvitations';

  override async up(): Promise<void> {
    this.addSql(`create table "staff_invitation" ("id" serial primary key, "email" varchar(254) not null, "platform_role" text not null, "token_hash" varchar(64) not null, "invited_by_id" int not null, "created_at" timestamptz not null, "expires_at" timestamptz not null, "accepted_at" timestamptz null, "accepted_by_id" int null, "revoked_at" timestamptz null)`);
    this.addSql(`alter table "staff_invitation" add constraint "staff_invitation_token_hash_unique" unique ("token_hash")`);
    this.addSql(`alter table "staff_invitation" add constraint "staff_invitation_platform_role_check" check ("platform_role" in ('admin', 'finance', 'support', 'content'))`);
    this.addSql(`alter table "staff_invitation" add constraint "staff_invitation_used_once" check (accepted_at is null or revoked_at is null)`);
    this.addSql(`alter table "staff_invitation" add constraint "staff_invitation_invited_by_id_foreign" foreign key ("invited_by_id") references "app_user" ("id")`);
    this.addSql(`alter table "staff_invitation" add constraint "staff_invitation_accepted_by_id_foreign" foreign key ("accepted_by_id") references "app_user" ("id") on delete set null`);
    this.addSql(`alter table "app_user" add column "staff_since" timestamptz null`);
    this.addSql(`update "app_user" set "staff_since" = "created_at" where "platform_role" is not null`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "app_user" drop column "staff_since"`);
    this.addSql(`drop table "staff_invitation"`);
  }
}
