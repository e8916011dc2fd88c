import { startTestApp, type TestApp } from './support/harness.js';
import { newCouponTemplate, newCustomer, newFreightTemplate } from './support/fixtures.js';
import { newFlashSale } from './support/flash-sales.js';
import { ADDRESS, addToCart, checkoutBody, shopWithProduct, stockOf } from './support/shopping.js';

/**
 * The checkout preview prices the cart exactly as checkout would (flash-sale units, coupons, freight
 * to the region) and writes nothing.
 */
let t: TestApp;
const previewBody = (extra: Record<string, unknown> = {}) => ({ region: ADDRESS.region, ...extra });
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

/** A customer with a cart across two shops: one with regional freight and a claimed coupon, one with a flash sale. */
async function twoShopCart() {
  const a = await shopWithProduct(t, [{ price: 3_000, stock: 10 }]);
  await newFreightTemplate(t, a.shop.id, { firstUnitFee: 600, additionalUnitFee: 100, regions: [{ region: ADDRESS.region, firstUnitFee: 900, additionalUnitFee: 200 }] }, [a.product.id]);
  const template = await newCouponTemplate(t, a.shop.id, { amountOff: 500 });
  const b = await shopWithProduct(t, [{ price: 2_000, stock: 10 }]);
  await newFlashSale(t, { shopId: b.shop.id, items: [{ skuId: b.product.skuIds[0], activityPrice: 1_200, reservedStock: 5, perCustomerLimit: 1 }] });
  const customer = await newCustomer(t, { available: 100_000, points: 0 });
  const coupon = await t.api('POST', `/api/coupon-templates/${template.id}/claim`, { token: customer.token });
  await addToCart(t, customer.token, a.product.skuIds[0], 2);
  await addToCart(t, customer.token, b.product.skuIds[0], 3);
  return { a, b, customer, couponId: coupon.body.id as number };
}

describe('checkout preview', () => {
  it('prices the cart as the checkout then places it: flash units, coupon, regional freight, totals; nothing written', async () => {
    const { a, b, customer, couponId } = await twoShopCart();
    const body = checkoutBody({ coupons: { [a.shop.id]: couponId } });
    const preview = await t.api('POST', '/api/checkout/preview', { token: customer.token, body: previewBody({ coupons: { [a.shop.id]: couponId } }) });
    expect(preview.status).toBe(200);
    expect(preview.body).toMatchObject({
      currency: 'CNY',
      orders: [
        { shop: { id: a.shop.id }, items_total: 6_000, discount: 500, coupon_id: couponId, freight_fee: 1_100, total: 6_600 },
        {
          shop: { id: b.shop.id },
          items: [{ pricing: 'flash_sale', unit_price: 1_200, quantity: 1 }, { pricing: 'standard', unit_price: 2_000, quantity: 2 }],
          items_total: 5_200, discount: 0, freight_fee: 0, total: 5_200,
        },
      ],
      total: 11_800,
    });
    // Nothing written: no order, the coupon unused, stock and cart as they were.
    expect(await t.sql('select id from shop_order where customer_id = ?', [customer.id])).toEqual([]);
    expect((await t.sql<{ status: string }>('select status from coupon where id = ?', [couponId]))[0].status).toBe('available');
    expect(await stockOf(t, a.product.skuIds[0])).toBe(10);
    expect((await t.api('GET', '/api/cart', { token: customer.token })).body.item_count).toBe(5);

    const placed = await t.api('POST', '/api/checkout', { token: customer.token, body });
    expect(placed.status).toBe(201);
    const totals = (orders: { total: number; freight_fee: number; discount: number }[]) => orders.map(({ total, freight_fee, discount }) => ({ total, freight_fee, discount }));
    expect(totals(placed.body.orders)).toEqual(totals(preview.body.orders));
  });

  it('answers the same over GraphQL', async () => {
    const { a, customer, couponId } = await twoShopCart();
    const rest = await t.api('POST', '/api/checkout/preview', { token: customer.token, body: previewBody({ coupons: { [a.shop.id]: couponId } }) });
    const gql = await t.gql(
      `query($r: RegionCode!, $c: [CouponChoiceInput!]) { checkoutPreview(region: $r, coupons: $c) {
         currency total orders { shop { id } itemsTotal discount couponId freightFee total items { skuId pricing unitPrice quantity } } } }`,
      { r: ADDRESS.region.replace('-', '_'), c: [{ shopId: a.shop.id, couponId }] },
      customer.token,
    );
    expect(gql.errors).toBeUndefined();
    expect(gql.data.checkoutPreview.total).toBe(rest.body.total);
    expect(gql.data.checkoutPreview.orders.map((o: { freightFee: number; discount: number }) => [o.freightFee, o.discount])).toEqual(
      rest.body.orders.map((o: { freight_fee: number; discount: number }) => [o.freight_fee, o.discount]),
    );
  });

  it('refuses what the checkout would refuse, and bad input, in the common error shape', async () => {
    const customer = await newCustomer(t);
    const empty = await t.api('POST', '/api/checkout/preview', { token: customer.token, body: previewBody() });
    expect([empty.status, empty.body.error.code]).toEqual([422, 'CART_EMPTY']);
    const { b, customer: shopper, couponId, a } = await twoShopCart();
    const misplaced = await t.api('POST', '/api/checkout/preview', { token: shopper.token, body: previewBody({ coupons: { [b.shop.id]: couponId } }) });
    expect(misplaced.status).toBe(422);
    const groupBuy = await t.api('POST', '/api/checkout/preview', { token: shopper.token, body: previewBody({ group_buy: { activity_id: 1 } }) });
    expect([groupBuy.status, groupBuy.body.error.code]).toEqual([400, 'VALIDATION_FAILED']);
    expect((await t.api('POST', '/api/checkout/preview', { body: previewBody({ coupons: { [a.shop.id]: couponId } }) })).status).toBe(401);
    const badRegion = await t.api('POST', '/api/checkout/preview', { token: shopper.token, body: { region: 'nowhere' } });
    expect(badRegion.body.error.details.problems[0].field).toBe('region');
  });

  it('over GraphQL, a refused preview is null with its error and leaves the other fields of the answer', async () => {
    const customer = await newCustomer(t);
    const res = await t.gql('{ me { id } checkoutPreview(region: CN_SH) { total } currency { code } }', undefined, customer.token);
    expect(res.data).toEqual({ me: { id: customer.id }, checkoutPreview: null, currency: { code: 'CNY' } });
    expect(res.errors?.map((e: { extensions: { code: string }; path: string[] }) => [e.extensions.code, e.path])).toEqual([['CART_EMPTY', ['checkoutPreview']]]);
  });
});
