import { Migration } from '@mikro-orm/migrations';

/**
 * Reviews, freight templates with region overrides, the shipping company dictionary (used by
 * shipments), the freight fee and shipping address on orders, and after-sale refunds and returns.
 */
export class Migration20261122100000AfterSale extends Migration {
  override name = 'Migration20261122100000AfterSale';

  override async up(): Promise<void> {
    // Shipping companies: a seeded dictionary. `other` is inactive: it only labels shipments made before it existed.
    this.addSql(`create table "shipping_company" ("code" varchar(20) not null, "name" varchar(80) not null, "active" boolean not null default true, "position" int not null default 0, primary key ("code"))`);
    this.addSql(`insert into "shipping_company" ("code", "name", "active", "position") values
      ('sf', 'SF Express', true, 1), ('jd', 'JD Logistics', true, 2), ('ems', 'China Post EMS', true, 3),
      ('zto', 'ZTO Express', true, 4), ('yto', 'YTO Express', true, 5), ('sto', 'STO Express', true, 6),
      ('yunda', 'Yunda Express', true, 7), ('jtexpress', 'J&T Express', true, 8), ('deppon', 'Deppon Express', true, 9),
      ('other', 'Other carrier', false, 99)`);
    this.addSql(`alter table "shipment" add column "company_code" varchar(20) null`);
    this.addSql(`update "shipment" set "company_code" = 'other'`);
    this.addSql(`alter table "shipment" alter column "company_code" set not null`);
    this.addSql(`alter table "shipment" add constraint "shipment_company_code_foreign" foreign key ("company_code") references "shipping_company" ("code")`);

    // Freight templates and their region overrides.
    this.addSql(`create table "freight_template" ("id" serial primary key, "shop_id" int not null, "name" varchar(80) not null, "first_unit_fee" int not null, "additional_unit_fee" int not null, "free_threshold" int null, "created_at" timestamptz not null, "updated_at" timestamptz not null)`);
    this.addSql(`create index "freight_template_shop_id_id_index" on "freight_template" ("shop_id", "id")`);
    this.addSql(`alter table "freight_template" add constraint "freight_template_fees_valid" check (first_unit_fee >= 0 and additional_unit_fee >= 0 and (free_threshold is null or free_threshold >= 0))`);
    this.addSql(`alter table "freight_template" add constraint "freight_template_shop_id_foreign" foreign key ("shop_id") references "shop" ("id")`);
    this.addSql(`create table "freight_template_region" ("template_id" int not null, "region" varchar(10) not null, "first_unit_fee" int not null, "additional_unit_fee" int not null, "free_threshold" int null, primary key ("template_id", "region"))`);
    this.addSql(`alter table "freight_template_region" add constraint "freight_template_region_fees_valid" check (first_unit_fee >= 0 and additional_unit_fee >= 0 and (free_threshold is null or free_threshold >= 0))`);
    this.addSql(`alter table "freight_template_region" add constraint "freight_template_region_template_id_foreign" foreign key ("template_id") references "freight_template" ("id") on delete cascade`);
    // A template in use cannot be deleted: the restrict foreign key decides, race-free.
    this.addSql(`alter table "product" add column "freight_template_id" int null`);
    this.addSql(`create index "product_freight_template_id_index" on "product" ("freight_template_id")`);
    this.addSql(`alter table "product" add constraint "product_freight_template_id_foreign" foreign key ("freight_template_id") references "freight_template" ("id") on delete restrict`);

    // Orders carry the server-computed freight fee and the shipping address snapshot.
    this.addSql(`alter table "shop_order" add column "freight_fee" int not null default 0, add column "shipping_address" jsonb null`);
    this.addSql(`alter table "shop_order" drop constraint "shop_order_amounts_valid"`);
    this.addSql(`alter table "shop_order" add constraint "shop_order_amounts_valid" check (items_total >= 0 and discount >= 0 and discount <= items_total and freight_fee >= 0 and total = items_total - discount + freight_fee)`);

    // Reviews: one per order item.
    this.addSql(`create table "review" ("id" serial primary key, "order_item_id" int not null, "product_id" int not null, "shop_id" int not null, "customer_id" int not null, "rating" smallint not null, "body" varchar(2000) not null, "image_urls" jsonb not null default '[]', "hidden" boolean not null default false, "hidden_at" timestamptz null, "reply" varchar(1000) null, "replied_at" timestamptz null, "created_at" timestamptz not null)`);
    this.addSql(`alter table "review" add constraint "review_order_item_id_unique" unique ("order_item_id")`);
    this.addSql(`alter table "review" add constraint "review_rating_range" check (rating between 1 and 5)`);
    this.addSql(`alter table "review" add constraint "review_image_urls_array" check (jsonb_typeof(image_urls) = 'array')`);
    this.addSql(`create index "review_shop_id_id_index" on "review" ("shop_id", "id")`);
    // The public page (newest first) and the rating summary (index-only) of a product's visible reviews.
    this.addSql(`create index "review_visible_product_idx" on "review" ("product_id", "id") include ("rating") where not hidden`);
    // Moderation lists hidden reviews.
    this.addSql(`create index "review_hidden_idx" on "review" ("id") where hidden`);
    this.addSql(`alter table "review" add constraint "review_order_item_id_foreign" foreign key ("order_item_id") references "order_item" ("id")`);
    this.addSql(`alter table "review" add constraint "review_product_id_foreign" foreign key ("product_id") references "product" ("id")`);
    this.addSql(`alter table "review" add constraint "review_shop_id_foreign" foreign key ("shop_id") references "shop" ("id")`);
    this.addSql(`alter table "review" add constraint "review_customer_id_foreign" foreign key ("customer_id") references "app_user" ("id")`);

    // After-sale: units in open or completed requests, per order item.
    this.addSql(`alter table "order_item" add column "refund_quantity" int not null default 0`);
    this.addSql(`alter table "order_item" add constraint "order_item_refund_within_quantity" check (refund_quantity >= 0 and refund_quantity <= quantity)`);
    this.addSql(`create table "refund" ("id" serial primary key, "order_id" int not null, "shop_id" int not null, "customer_id" int not null, "kind" text not null, "status" text not null default 'requested', "reason" varchar(500) not null, "amount" int not null, "freight_amount" int not null default 0, "reject_reason" varchar(500) null, "return_company_code" varchar(20) null, "return_tracking_number" varchar(80) null, "created_at" timestamptz not null, "decided_at" timestamptz null, "shipped_back_at" timestamptz null, "completed_at" timestamptz null, "cancelled_at" timestamptz null)`);
    this.addSql(`create index "refund_order_id_index" on "refund" ("order_id")`);
    this.addSql(`create index "refund_shop_id_id_index" on "refund" ("shop_id", "id")`);
    this.addSql(`create index "refund_customer_id_id_index" on "refund" ("customer_id", "id")`);
    this.addSql(`alter table "refund" add constraint "refund_kind_check" check ("kind" in ('refund', 'return'))`);
    this.addSql(`alter table "refund" add constraint "refund_status_check" check ("status" in ('requested', 'approved', 'shipped_back', 'completed', 'rejected', 'cancelled'))`);
    this.addSql(`alter table "refund" add constraint "refund_status_fits_kind" check (kind = 'return' or status not in ('approved', 'shipped_back'))`);
    this.addSql(`alter table "refund" add constraint "refund_amounts_valid" check (amount >= 0 and freight_amount >= 0 and freight_amount <= amount)`);
    this.addSql(`alter table "refund" add constraint "refund_shipped_back_has_tracking" check (status not in ('shipped_back', 'completed') or kind = 'refund' or (return_company_code is not null and return_tracking_number is not null))`);
    this.addSql(`alter table "refund" add constraint "refund_order_id_foreign" foreign key ("order_id") references "shop_order" ("id")`);
    this.addSql(`alter table "refund" add constraint "refund_shop_id_foreign" foreign key ("shop_id") references "shop" ("id")`);
    this.addSql(`alter table "refund" add constraint "refund_customer_id_foreign" foreign key ("customer_id") references "app_user" ("id")`);
    this.addSql(`alter table "refund" add constraint "refund_return_company_code_foreign" foreign key ("return_company_code") references "shipping_company" ("code")`);
    this.addSql(`create table "refund_item" ("id" serial primary key, "refund_id" int not null, "order_item_id" int not null, "quantity" int not null, "amount" int not null)`);
    this.addSql(`create index "refund_item_refund_id_index" on "refund_item" ("refund_id")`);
    this.addSql(`alter table "refund_item" add constraint "refund_item_refund_id_order_item_id_unique" unique ("refund_id", "order_item_id")`);
    this.addSql(`alter table "refund_item" add constraint "refund_item_valid" check (quantity > 0 and amount >= 0)`);
    this.addSql(`alter table "refund_item" add constraint "refund_item_refund_id_foreign" foreign key ("refund_id") references "refund" ("id")`);
    this.addSql(`alter table "refund_item" add constraint "refund_item_order_item_id_foreign" foreign key ("order_item_id") references "order_item" ("id")`);
  }
}
