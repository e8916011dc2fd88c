import { Migration } from '@mikro-orm/migrations';

/** Points mall (platform-owned products, redemption orders) and customer favorites of products and shops. */
export class Migration20261122030000PointsMallAndFavorites extends Migration {
  override name = 'Migration20261122030000PointsMallAndFavorites';

  override async up(): Promise<void> {
    this.addSql(`create table "points_product" ("id" serial primary key, "name" varchar(200) not null, "description" text null, "image_url" varchar(500) null, "points_price" int not null, "stock" int not null, "published" boolean not null default false, "created_at" timestamptz not null, "updated_at" timestamptz not null)`);
    this.addSql(`alter table "points_product" add constraint "points_product_points_price_positive" check (points_price > 0)`);
    this.addSql(`alter table "points_product" add constraint "points_product_stock_non_negative" check (stock >= 0)`);
    // The public listing reads only published products, newest first.
    this.addSql(`create index "points_product_published_id_idx" on "points_product" ("id") where published`);

    this.addSql(`create table "redemption" ("id" serial primary key, "user_id" int not null, "points_product_id" int not null, "status" text not null default 'pending_fulfillment', "product_name" varchar(200) not null, "points_price" int not null, "quantity" int not null, "points_total" bigint not null, "shipping_address" jsonb not null, "created_at" timestamptz not null, "fulfilled_at" timestamptz null)`);
    this.addSql(`alter table "redemption" add constraint "redemption_status_check" check ("status" in ('pending_fulfillment', 'fulfilled'))`);
    this.addSql(`alter table "redemption" add constraint "redemption_quantity_positive" check (quantity > 0)`);
    this.addSql(`alter table "redemption" add constraint "redemption_points_total_matches" check (points_total = points_price::bigint * quantity)`);
    this.addSql(`alter table "redemption" add constraint "redemption_fulfilled_at_matches_status" check ((status = 'fulfilled') = (fulfilled_at is not null))`);
    this.addSql(`alter table "redemption" add constraint "redemption_user_id_foreign" foreign key ("user_id") references "app_user" ("id")`);
    this.addSql(`alter table "redemption" add constraint "redemption_points_product_id_foreign" foreign key ("points_product_id") references "points_product" ("id")`);
    // A customer's own list and the admin list (optionally by status), both newest first.
    this.addSql(`create index "redemption_user_id_id_index" on "redemption" ("user_id", "id")`);
    this.addSql(`create index "redemption_status_id_index" on "redemption" ("status", "id")`);
    this.addSql(`create index "redemption_points_product_id_index" on "redemption" ("points_product_id")`);

    // Backstops in the ledger: one points debit per redemption, one points credit per delivered order.
    this.addSql(`create unique index "ledger_entry_one_debit_per_redemption" on "ledger_entry" ("reference_id") where reason = 'redemption' and reference_type = 'redemption'`);
    this.addSql(`create unique index "ledger_entry_one_points_credit_per_order" on "ledger_entry" ("reference_id") where reason = 'points_earned' and reference_type = 'order'`);

    // Favorites: the primary key keeps one row per (customer, object); the second index serves the newest-first list.
    this.addSql(`create table "favorite_product" ("user_id" int not null, "product_id" int not null, "created_at" timestamptz not null, primary key ("user_id", "product_id"))`);
    this.addSql(`alter table "favorite_product" add constraint "favorite_product_user_id_foreign" foreign key ("user_id") references "app_user" ("id") on update cascade on delete cascade`);
    this.addSql(`alter table "favorite_product" add constraint "favorite_product_product_id_foreign" foreign key ("product_id") references "product" ("id") on update cascade on delete cascade`);
    this.addSql(`create index "favorite_product_user_id_created_at_index" on "favorite_product" ("user_id", "created_at")`);
    this.addSql(`create index "favorite_product_product_id_index" on "favorite_product" ("product_id")`);

    this.addSql(`create table "favorite_shop" ("user_id" int not null, "shop_id" int not null, "created_at" timestamptz not null, primary key ("user_id", "shop_id"))`);
    this.addSql(`alter table "favorite_shop" add constraint "favorite_shop_user_id_foreign" foreign key ("user_id") references "app_user" ("id") on update cascade on delete cascade`);
    this.addSql(`alter table "favorite_shop" add constraint "favorite_shop_shop_id_foreign" foreign key ("shop_id") references "shop" ("id") on update cascade on delete cascade`);
    this.addSql(`create index "favorite_shop_user_id_created_at_index" on "favorite_shop" ("user_id", "created_at")`);
    this.addSql(`create index "favorite_shop_shop_id_index" on "favorite_shop" ("shop_id")`);
  }
}
