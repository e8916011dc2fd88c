import { Migration } from '@mikro-orm/migrations';

/** Cart, orders with their items, shipments, invoices and idempotency keys. */
export class Migration20261122020000PurchaseFlow extends Migration {
  override name = 'Migration20261122020000PurchaseFlow';

  override async up(): Promise<void> {
    this.addSql(`create table "shop_order" ("id" serial primary key, "customer_id" int not null, "shop_id" int not null, "status" text not null default 'pending_payment', "items_total" int not null, "discount" int not null default 0, "total" int not null, "created_at" timestamptz not null, "paid_at" timestamptz null, "shipped_at" timestamptz null, "delivered_at" timestamptz null, "cancelled_at" timestamptz null, "cancel_reason" varchar(40) null)`);
    this.addSql(`create index "shop_order_shop_id_id_index" on "shop_order" ("shop_id", "id")`);
    this.addSql(`create index "shop_order_customer_id_id_index" on "shop_order" ("customer_id", "id")`);
    this.addSql(`alter table "shop_order" add constraint "shop_order_amounts_valid" check (items_total >= 0 and discount >= 0 and discount <= items_total and total = items_total - discount)`);
    this.addSql(`alter table "shop_order" add constraint "shop_order_status_check" check ("status" in ('pending_payment', 'paid', 'shipped', 'delivered', 'cancelled'))`);
    this.addSql(`create table "shipment" ("id" serial primary key, "order_id" int not null, "carrier" varchar(80) not null, "tracking_number" varchar(80) not null, "created_at" timestamptz not null)`);
    this.addSql(`create index "shipment_order_id_index" on "shipment" ("order_id")`);
    this.addSql(`create table "order_item" ("id" serial primary key, "order_id" int not null, "product_id" int not null, "sku_id" int not null, "product_name" varchar(200) not null, "sku_name" varchar(120) not null, "unit_price" int not null, "quantity" int not null, "amount" int not null, "pricing" text not null default 'standard', "shipped_quantity" int not null default 0, "sold" boolean not null default false)`);
    this.addSql(`create index "order_item_order_id_index" on "order_item" ("order_id")`);
    this.addSql(`create index "order_item_sku_id_index" on "order_item" ("sku_id")`);
    this.addSql(`alter table "order_item" add constraint "order_item_shipped_within_quantity" check (shipped_quantity >= 0 and shipped_quantity <= quantity)`);
    this.addSql(`alter table "order_item" add constraint "order_item_quantity_positive" check (quantity > 0)`);
    this.addSql(`alter table "order_item" add constraint "order_item_pricing_check" check ("pricing" in ('standard', 'flash_sale', 'group_buy'))`);
    this.addSql(`create table "shipment_item" ("id" serial primary key, "shipment_id" int not null, "order_item_id" int not null, "quantity" int not null)`);
    this.addSql(`create index "shipment_item_shipment_id_index" on "shipment_item" ("shipment_id")`);
    this.addSql(`create index "shipment_item_order_item_id_index" on "shipment_item" ("order_item_id")`);
    this.addSql(`alter table "shipment_item" add constraint "shipment_item_quantity_positive" check (quantity > 0)`);
    this.addSql(`create table "invoice" ("id" serial primary key, "order_id" int not null, "invoice_no" varchar(40) not null, "title" varchar(200) not null, "tax_number" varchar(40) null, "amount" int not null, "issued_at" timestamptz not null)`);
    this.addSql(`alter table "invoice" add constraint "invoice_order_id_unique" unique ("order_id")`);
    this.addSql(`alter table "invoice" add constraint "invoice_invoice_no_unique" unique ("invoice_no")`);
    this.addSql(`create table "idempotency_key" ("user_id" int not null, "scope" varchar(60) not null, "key" varchar(200) not null, "request_hash" varchar(64) not null, "response" jsonb null, "completed_at" timestamptz null, "created_at" timestamptz not null, primary key ("user_id", "scope", "key"))`);
    this.addSql(`create table "cart_item" ("id" serial primary key, "customer_id" int not null, "sku_id" int not null, "quantity" int not null, "added_at" timestamptz not null)`);
    this.addSql(`create index "cart_item_sku_id_index" on "cart_item" ("sku_id")`);
    this.addSql(`alter table "cart_item" add constraint "cart_item_customer_id_sku_id_unique" unique ("customer_id", "sku_id")`);
    this.addSql(`alter table "cart_item" add constraint "cart_item_quantity_positive" check (quantity > 0)`);
    this.addSql(`alter table "shop_order" add constraint "shop_order_customer_id_foreign" foreign key ("customer_id") references "app_user" ("id")`);
    this.addSql(`alter table "shop_order" add constraint "shop_order_shop_id_foreign" foreign key ("shop_id") references "shop" ("id")`);
    this.addSql(`alter table "shipment" add constraint "shipment_order_id_foreign" foreign key ("order_id") references "shop_order" ("id")`);
    this.addSql(`alter table "order_item" add constraint "order_item_order_id_foreign" foreign key ("order_id") references "shop_order" ("id")`);
    this.addSql(`alter table "order_item" add constraint "order_item_product_id_foreign" foreign key ("product_id") references "product" ("id")`);
    this.addSql(`alter table "order_item" add constraint "order_item_sku_id_foreign" foreign key ("sku_id") references "sku" ("id")`);
    this.addSql(`alter table "shipment_item" add constraint "shipment_item_shipment_id_foreign" foreign key ("shipment_id") references "shipment" ("id")`);
    this.addSql(`alter table "shipment_item" add constraint "shipment_item_order_item_id_foreign" foreign key ("order_item_id") references "order_item" ("id")`);
    this.addSql(`alter table "invoice" add constraint "invoice_order_id_foreign" foreign key ("order_id") references "shop_order" ("id")`);
    this.addSql(`alter table "idempotency_key" add constraint "idempotency_key_user_id_foreign" foreign key ("user_id") references "app_user" ("id") on delete cascade`);
    this.addSql(`alter table "cart_item" add constraint "cart_item_customer_id_foreign" foreign key ("customer_id") references "app_user" ("id") on delete cascade`);
    this.addSql(`alter table "cart_item" add constraint "cart_item_sku_id_foreign" foreign key ("sku_id") references "sku" ("id") on delete cascade`);
    // Unpaid orders are found by the payment-window sweep through this partial index.
    this.addSql(`create index "shop_order_pending_created_idx" on "shop_order" ("created_at") where status = 'pending_payment'`);
    // sold_count: an index-only scan over the sold lines of a page of products.
    this.addSql(`create index "order_item_sold_product_idx" on "order_item" ("product_id") include ("quantity") where sold`);
    // Invoice numbers are taken at issue time.
    this.addSql(`create sequence "invoice_no_seq"`);
    // Stats count a customer's orders by state.
    this.addSql(`create index "shop_order_customer_status_idx" on "shop_order" ("customer_id", "status")`);
  }
}
