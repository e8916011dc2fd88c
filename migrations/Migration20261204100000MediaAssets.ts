import { Migration } from '@mikro-orm/migrations';

/**
 * Uploaded pictures (issue 44, "media"): one row per picture and owner (a shop, or the platform when
 * `shop_id` is null), keyed by the SHA-256 of its bytes; the files themselves are in the media store.
 */
export class Migration20261204100000MediaAssets extends Migration {
  override name = 'Migration20261204100000MediaAssets';

  override async up(): Promise<void> {
    this.addSql(`create table "media_asset" ("id" serial primary key, "shop_id" int null, "digest" varchar(64) not null, "format" text not null, "width" int not null, "height" int not null, "byte_size" int not null, "filename" varchar(200) not null, "uploaded_by_id" int null, "created_at" timestamptz not null)`);
    this.addSql(`create unique index "media_asset_owner_digest_unique" on "media_asset" ("shop_id", "digest") nulls not distinct`);
    this.addSql(`create index "media_asset_shop_id_id_index" on "media_asset" ("shop_id", "id")`);
    this.addSql(`alter table "media_asset" add constraint "media_asset_digest_hex" check (digest ~ '^[0-9a-f]{64}$')`);
    this.addSql(`alter table "media_asset" add constraint "media_asset_size_positive" check (width > 0 and height > 0 and byte_size > 0)`);
    this.addSql(`alter table "media_asset" add constraint "media_asset_shop_id_foreign" foreign key ("shop_id") references "shop" ("id") on delete cascade`);
    this.addSql(`alter table "media_asset" add constraint "media_asset_uploaded_by_id_foreign" foreign key ("uploaded_by_id") references "app_user" ("id") on delete set null`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table "media_asset"`);
  }
}
