import { mkdtempSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { programOf, scanForGluedSql, scanForWrites, type OwnedColumn } from './support/ownership-scan.js';

/**
 * Rules read from the sources. One owner per lifecycle: an order's status changes only in the order
 * lifecycle (`transitionOrders`), stock only in inventory (and in checkout's one write statement,
 * which records the same movements and is held equal to the transactional writer by
 * test/checkout-writers.test.ts), a balance only by the ledger's transfers, a coupon's status only in
 * the coupon module (and that statement). A write anywhere else fails here, naming the file and line.
 */
const ORDER_STATUS: OwnedColumn = { entity: 'Order', table: 'shop_order', property: 'status', column: 'status' };
const STOCK: OwnedColumn[] = [
  { entity: 'Sku', table: 'sku', property: 'stock', column: 'stock', createdAs: '0' },
  { entity: 'FlashSaleItem', table: 'flash_sale_item', property: 'remainingStock', column: 'remaining_stock', createdAs: '0' },
  { entity: 'FlashSaleItem', table: 'flash_sale_item', property: 'reservedStock', column: 'reserved_stock', createdAs: '0' },
];

const APPLICATION_STATUS: OwnedColumn = { entity: 'ShopApplication', table: 'shop_application', property: 'status', column: 'status' };
const DISPUTE_STATUS: OwnedColumn = { entity: 'Dispute', table: 'dispute', property: 'status', column: 'status' };
// A shop is created active (the column's default): no writer names its status but the lifecycle.
const SHOP_STATUS: OwnedColumn = { entity: 'Shop', table: 'shop', property: 'status', column: 'status' };

const BALANCE: OwnedColumn = { entity: 'Balance', table: 'balance', property: 'amount', column: 'amount', createdAs: '0' };
const MEMBER_ROLE: OwnedColumn = { entity: 'ShopMembership', table: 'shop_membership', property: 'role', column: 'role' };
const PLATFORM_ROLE: OwnedColumn = { entity: 'User', table: 'app_user', property: 'platformRole', column: 'platform_role' };
const COUPON_STATUS: OwnedColumn = { entity: 'Coupon', table: 'coupon', property: 'status', column: 'status', createdAs: 'CouponStatus.Available' };

const OWNERS: { columns: OwnedColumn[]; allowed: (file: string) => boolean }[] = [
  { columns: [ORDER_STATUS], allowed: (file) => file === 'src/services/orders/order-lifecycle.ts' },
  // A shop application's status moves only in its lifecycle (submitted -> approved | rejected | withdrawn).
  { columns: [APPLICATION_STATUS], allowed: (file) => file === 'src/services/shops/application-lifecycle.ts' },
  // A dispute's status moves only in its lifecycle (open -> refunded | upheld).
  { columns: [DISPUTE_STATUS], allowed: (file) => file === 'src/services/after-sale/dispute-lifecycle.ts' },
  // A shop's status moves only in its lifecycle (active -> suspended -> active, active | suspended -> closed).
  { columns: [SHOP_STATUS], allowed: (file) => file === 'src/services/shops/shop-lifecycle.ts' },
  {
    columns: STOCK,
    allowed: (file) => file.startsWith('src/services/inventory/') || file === 'src/services/checkout/place-orders.repository.ts',
  },
  // A shop's staff changes only in its module (the rule "a shop keeps an owner" lives there); the demo seed writes its own members.
  { columns: [MEMBER_ROLE], allowed: (file) => file === 'src/services/shops/shop-members.service.ts' || file === 'src/seed/demo-seed.ts' },
  // The platform's staff changes only in its module (the rule "the platform keeps an admin" lives there); the demo seed writes its admin.
  { columns: [PLATFORM_ROLE], allowed: (file) => file === 'src/services/platform/platform-staff.service.ts' || file === 'src/seed/demo-seed.ts' },
  // Money moves only by the ledger's transfers (each one statement, both sides and their entries).
  { columns: [BALANCE], allowed: (file) => file === 'src/services/accounts/ledger.service.ts' },
  // A coupon is used and given back only by its module; checkout's one write statement marks the
  // coupons it applies used, as it takes stock, held equal to the transactional writer by
  // test/checkout-writers.test.ts.
  { columns: [COUPON_STATUS], allowed: (file) => file === 'src/services/promotions/coupon-redemption.ts' || file === 'src/services/checkout/place-orders.repository.ts' },
];

function sourcesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sourcesUnder(path) : path.endsWith('.ts') ? [path] : [];
  });
}

const root = process.cwd();

const files = sourcesUnder(join(root, 'src'));
let program: ReturnType<typeof programOf>;
beforeAll(() => {
  program = programOf(files, join(root, 'tsconfig.json'));
}, 60_000);

it('writes an order status only in the order lifecycle, a shop application status and a shop status only in their lifecycles, stock only in inventory, balances only in the ledger, coupon status only in the coupon module, a member\'s role only in the shop staff module and a platform role only in the platform staff module', () => {
  const found = OWNERS.flatMap(({ columns, allowed }) =>
    scanForWrites(program, files, columns)
      .map((v) => ({ ...v, file: relative(root, v.file) }))
      .filter((v) => !allowed(v.file)),
  );
  expect(found.map((v) => `${v.file}:${v.line} ${v.what}`)).toEqual([]);
  // The scan does see the owners' own writes (so an empty answer above is not a blind scan).
  const seen = new Set(scanForWrites(program, files, [ORDER_STATUS, ...STOCK, APPLICATION_STATUS, SHOP_STATUS, BALANCE, COUPON_STATUS, DISPUTE_STATUS, MEMBER_ROLE, PLATFORM_ROLE]).map((v) => relative(root, v.file)));
  expect([...seen].sort()).toEqual([
    'src/seed/demo-seed.ts', 'src/services/accounts/ledger.service.ts', 'src/services/after-sale/dispute-lifecycle.ts', 'src/services/checkout/place-orders.repository.ts', 'src/services/inventory/inventory.service.ts',
    'src/services/orders/order-lifecycle.ts', 'src/services/platform/platform-staff.service.ts', 'src/services/promotions/coupon-redemption.ts',
    'src/services/shops/application-lifecycle.ts', 'src/services/shops/shop-lifecycle.ts', 'src/services/shops/shop-members.service.ts',
  ]);
}, 60_000);

it('finds each kind of write it looks for', () => {
  const dir = mkdtempSync(join(tmpdir(), 'ownership-'));
  const file = join(dir, 'writes.ts');
  writeFileSync(
    file,
    `
    class Order { status = 'x'; total = 0 }
    class Sku { stock = 0; name = '' }
    declare const db: any;
    declare const em: { create(c: unknown, d: object): unknown; assign(e: unknown, d: object): void; nativeUpdate(c: unknown, w: object, d: object): void };
    declare const order: Order;
    declare const sku: Sku;
    export async function writes(set: object) {
      await db.updateTable('Order').set({ status: 'paid' }).execute();
      await db.updateTable('Order as o').set((eb: unknown) => ({ status: eb })).execute();
      await db.updateTable('Order').set(set).execute();
      await db.updateTable('Order').set({ total: 1 }).execute();
      await db.updateTable('Sku').set({ stock: 1 }).execute();
      em.create(Order, { status: 'paid' });
      em.create(Sku, { stock: 0, name: 'empty' });
      em.create(Sku, { stock: 5, name: 'stocked' });
      em.assign(order, { status: 'paid' });
      em.nativeUpdate(Order, {}, { status: 'paid' });
      order.status = 'paid';
      sku.stock += 1;
      await db.execute(\`update shop_order o set cancel_reason = null, status = 'paid' where id = 1\`);
      await db.execute('insert into shop_order (customer_id, status) values (1, 2)');
      await db.execute('update sku set stock = stock - 1 where id = 1');
      await db.execute('update sku set name = 1 where id = 1');
    }`,
  );
  const program = programOf([file], join(root, 'tsconfig.json'));
  const found = scanForWrites(program, [file], [ORDER_STATUS, STOCK[0]]).map((v) => `${v.line} ${v.what}`);
  expect(found).toEqual([
    '9 updates Order.status',
    '10 updates Order.status',
    '11 updates Order with a set this scan cannot read (write it as an object literal)',
    '13 updates Sku.stock',
    '14 creates Order with status',
    '16 creates Sku with stock',
    '17 assigns Order.status',
    '18 updates Order.status',
    '19 sets Order.status',
    '20 sets Sku.stock',
    '21 SQL updates shop_order.status',
    '22 SQL inserts shop_order.status',
    '23 SQL updates sku.stock',
  ]);
});

it('glues no SQL from parts: statements are builders or complete texts', () => {
  expect(scanForGluedSql(program, files).map((v) => `${relative(root, v.file)}:${v.line} ${v.what}`)).toEqual([]);
});

it('finds SQL glued from parts', () => {
  const dir = mkdtempSync(join(tmpdir(), 'glue-'));
  const file = join(dir, 'glue.ts');
  writeFileSync(
    file,
    `
    declare const sql: { raw(text: string): unknown } & ((s: TemplateStringsArray, ...v: unknown[]) => unknown);
    declare const where: string, table: string;
    export const glued = \`select id from product where \${where}\`;
    export const added = 'update ' + table + ' set stock = 0';
    export const raw = sql.raw(where);
    export const tagged = sql\`select id from product where id = \${where}\`;
    export const message = \`SKU \${where} has no stock\`;`,
  );
  const glueProgram = programOf([file], join(root, 'tsconfig.json'));
  expect(scanForGluedSql(glueProgram, [file]).map((v) => `${v.line} ${v.what}`)).toEqual([
    '4 SQL text glued from a template',
    '5 SQL text glued with +',
    '6 sql.raw of a computed text',
  ]);
});
