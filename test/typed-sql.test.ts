import { randomBytes } from 'node:crypto';
import { EntityName } from '@mikro-orm/core';
import { openOrm, type MikroORM } from '../src/db/orm.js';
import { typedSql, type Database } from '../src/db/typed-sql.js';
import { Balance, BalanceKind } from '../src/entities/balance.entity.js';
import { Order, OrderStatus, type ShippingAddress } from '../src/entities/order.entity.js';
import { Shipment } from '../src/entities/shipment.entity.js';
import { ShippingCompany } from '../src/entities/shipping-company.entity.js';
import { Shop, type ShopStatus } from '../src/entities/shop.entity.js';
import { Role, User } from '../src/entities/user.entity.js';
import { ensureTemplate } from './support/template.js';
import { adminQuery, databaseUrl, PREFIX, TEMPLATE_DB } from './support/databases.js';

// Type-level assertions: checked by `npm run typecheck` (vitest only transpiles).
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Assert<T extends true> = T;

export type Checks = [
  // Every entity is a table, under its class name.
  Assert<Same<keyof Database,
    | 'AuthToken' | 'AuthAttemptCount' | 'Balance' | 'Brand' | 'Category' | 'HomeContentItem' | 'LedgerEntry' | 'Product' | 'Shop' | 'ShopProfile'
    | 'Sku' | 'User' | 'CartItem' | 'Order' | 'OrderItem' | 'Shipment' | 'ShipmentItem' | 'Invoice' | 'IdempotencyKey'
    | 'CouponTemplate' | 'Coupon' | 'GroupBuyActivity' | 'BuyingGroup' | 'GroupMembership' | 'FlashSale' | 'FlashSaleItem'
    | 'FlashSalePurchase' | 'Review' | 'FreightTemplate' | 'FreightTemplateRegion' | 'ShippingCompany' | 'Refund' | 'RefundItem'
    | 'FavoriteProduct' | 'FavoriteShop' | 'PointsProduct' | 'Redemption' | 'CatalogVersion' | 'SalesVersion' | 'SalesChange' | 'SalesChangeHorizon' | 'SearchSuggestion'
    | 'Event' | 'EventSequence' | 'WebhookEndpoint' | 'WebhookDelivery' | 'WebhookAttempt'
    | 'StockMovement' | 'SavedAddress' | 'CommissionRate' | 'PayoutBatch' | 'Payout' | 'Payment' | 'PaymentOrder' | 'PaymentEvent' | 'PaymentRefund' | 'ShopApplication' | 'Dispute'
    | 'ShopMembership' | 'MemberInvitation' | 'StaffInvitation' | 'AuditEntry' | 'MediaAsset' | 'OutgoingMail'>>,
  // No column holds an entity: each relation is its foreign key's value (the target's key is known).
  Assert<Same<{ [T in keyof Database]: { [C in keyof Database[T]]: typeof EntityName extends keyof NonNullable<Database[T][C]> ? C : never }[keyof Database[T]] }[keyof Database], never>>,
  // A bigint kept as a number (BigIntType('number')), an enum, a nullable column, a foreign key.
  Assert<Same<Database['Balance'], { id: number; user: number | null; shop: number | null; kind: BalanceKind; currency: string | null; amount: number; slot: number }>>,
  // Timestamps, nullable ones, a JSON column typed as its shape.
  Assert<Same<Database['Order']['createdAt'], Date>>,
  Assert<Same<Database['Order']['paidAt'], Date | null>>,
  Assert<Same<Database['Order']['status'], OrderStatus>>,
  Assert<Same<Database['Order']['shippingAddress'], ShippingAddress>>,
  Assert<Same<Database['Order']['coupon'], number | null>>,
  Assert<Same<Database['Review']['imageUrls'], string[]>>,
  Assert<Same<Database['Review']['rating'], number>>,
  // A foreign key to a table keyed by a string.
  Assert<Same<Database['Shipment']['company'], string>>,
  Assert<Same<Database['Refund']['returnCompany'], string | null>>,
  // A bigint kept as text (the default BigIntType).
  Assert<Same<Database['CatalogVersion'], { id: number; n: string }>>,
  Assert<Same<Database['ShopMembership']['shop'], number>>,
  // The inverse side of a one-to-one (`Shop.profile`) is no column.
  Assert<Same<Database['Shop'], { id: number; slug: string; name: string; status: ShopStatus; statusReason: string | null; statusChangedAt: Date | null; createdAt: Date }>>,
];

describe('typed SQL on the entities', () => {
  const dbName = `${PREFIX}_typed_${randomBytes(4).toString('hex')}`;
  let orm: MikroORM;
  const ids = { balance: 0, order: 0, shipment: 0, user: 0 };
  const address: ShippingAddress = { recipient: 'Test Buyer', phone: '+86 138 0000 0000', region: 'CN-SH', address: '1 Test Road' };
  const bigAmount = 2 ** 40 + 7;

  beforeAll(async () => {
    await ensureTemplate();
    await adminQuery(`create database ${dbName} template ${TEMPLATE_DB}`);
    orm = await openOrm({ clientUrl: databaseUrl(dbName), poolSize: 2 });
    const em = orm.em.fork();
    const tag = randomBytes(3).toString('hex');
    const shop = em.create(Shop, { slug: `typed-${tag}`, name: 'Typed Shop' });
    const user = em.create(User, { email: `typed-${tag}@example.test`, passwordHash: 'x', displayName: 'Typed', role: Role.Customer });
    const balance = em.create(Balance, { user, kind: BalanceKind.Available, currency: 'CNY', amount: bigAmount });
    const order = em.create(Order, { customer: user, shop, itemsTotal: 1000, total: 1000, shippingAddress: address });
    const shipment = em.create(Shipment, {
      order, company: em.getReference(ShippingCompany, 'sf'), carrier: 'SF Express', trackingNumber: 'SF0001',
    });
    await em.flush();
    Object.assign(ids, { balance: balance.id, order: order.id, shipment: shipment.id, user: user.id });
  });
  afterAll(async () => {
    await orm?.close();
    await adminQuery(`drop database if exists ${dbName} with (force)`);
  });

  it('reads a bigint balance as the number its type says, with its enum and nullable columns', async () => {
    const row = await typedSql(orm.em.fork()).selectFrom('Balance').selectAll().where('id', '=', ids.balance).executeTakeFirstOrThrow();
    expect(row).toEqual({ id: ids.balance, user: ids.user, shop: null, kind: BalanceKind.Available, currency: 'CNY', amount: bigAmount, slot: 0 });
  });

  it('reads timestamps as Dates, a null timestamp as null and a JSON column as its object', async () => {
    const row = await typedSql(orm.em.fork())
      .selectFrom('Order')
      .select(['status', 'createdAt', 'paidAt', 'shippingAddress', 'coupon'])
      .where('id', '=', ids.order)
      .executeTakeFirstOrThrow();
    expect(row.createdAt).toBeInstanceOf(Date);
    expect(row).toEqual({ status: OrderStatus.PendingPayment, createdAt: row.createdAt, paidAt: null, shippingAddress: address, coupon: null });
  });

  it('reads a foreign key to a string-keyed table as that string', async () => {
    const row = await typedSql(orm.em.fork()).selectFrom('Shipment').select(['order', 'company', 'createdAt']).where('id', '=', ids.shipment).executeTakeFirstOrThrow();
    expect(row).toEqual({ order: ids.order, company: 'sf', createdAt: expect.any(Date) });
  });

  it('reads a bigint kept as text as a string', async () => {
    const row = await typedSql(orm.em.fork()).selectFrom('CatalogVersion').selectAll().executeTakeFirstOrThrow();
    expect(row).toEqual({ id: 1, n: expect.stringMatching(/^\d+$/) });
  });

  it('reads a user with its timestamp and null foreign key, and runs inside the entity manager transaction', async () => {
    const em = orm.em.fork();
    await expect(
      em.transactional(async (tx) => {
        await typedSql(tx).updateTable('User').set({ displayName: 'Renamed' }).where('id', '=', ids.user).execute();
        const inside = await typedSql(tx).selectFrom('User').select(['displayName', 'createdAt', 'platformRole']).where('id', '=', ids.user).executeTakeFirstOrThrow();
        expect(inside).toEqual({ displayName: 'Renamed', createdAt: expect.any(Date), platformRole: null });
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    const after = await typedSql(orm.em.fork()).selectFrom('User').select('displayName').where('id', '=', ids.user).executeTakeFirstOrThrow();
    expect(after.displayName).toBe('Typed');
  });
});
