import { mutate } from './support/graphql.js';
import { startTestApp, type TestApp } from './support/harness.js';
import { newCategory, newCustomer, newFreightTemplate, newOperator, newProduct, newShop } from './support/fixtures.js';
import { ADDRESS, addToCart, checkoutBody, checkoutOk, payOk, placeOrder, shopWithProduct } from './support/shopping.js';
import { freightFees, freightTermsOfDrafts, groupFee } from '../src/services/shipping/freight-fees.js';
import { ItemPricing } from '../src/entities/order-item.entity.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const TERMS = {
  firstUnitFee: 800,
  additionalUnitFee: 200,
  freeThreshold: 20_000,
  regions: [{ region: 'CN-XZ', firstUnitFee: 2_000, additionalUnitFee: 1_000, freeThreshold: null }],
};

async function checkoutTo(token: string, region: string, skuId: number, quantity: number) {
  await addToCart(t, token, skuId, quantity);
  const [order] = await checkoutOk(t, token, {}, { shipping_address: { ...ADDRESS, region } });
  return order;
}

describe('freight at checkout', () => {
  it('charges the first unit, then each additional unit, stores the fee on the order and adds it to the total', async () => {
    const { shop, product } = await shopWithProduct(t, [{ price: 1000, stock: 100 }]);
    await newFreightTemplate(t, shop.id, TERMS, [product.id]);
    const customer = await newCustomer(t);

    const one = await checkoutTo(customer.token, 'CN-SH', product.skuIds[0], 1);
    expect(one).toMatchObject({ items_total: 1000, discount: 0, freight_fee: 800, total: 1800, shipping_address: { ...ADDRESS, region: 'CN-SH' } });
    const three = await checkoutTo(customer.token, 'CN-SH', product.skuIds[0], 3);
    expect(three).toMatchObject({ items_total: 3000, freight_fee: 800 + 2 * 200, total: 4200 });
    const [stored] = await t.sql('select freight_fee, total, shipping_address from shop_order where id = ?', [three.id]);
    expect(stored).toMatchObject({ freight_fee: 1200, total: 4200, shipping_address: { region: 'CN-SH', recipient: ADDRESS.recipient } });
    expect((await t.api('GET', `/api/orders/${three.id}`, { token: customer.token })).body).toMatchObject({ freight_fee: 1200, total: 4200 });
  });

  it('ships free from the threshold on, except in a region whose override has none', async () => {
    const { shop, product } = await shopWithProduct(t, [{ price: 1000, stock: 100 }]);
    await newFreightTemplate(t, shop.id, TERMS, [product.id]);
    const customer = await newCustomer(t);

    expect(await checkoutTo(customer.token, 'CN-SH', product.skuIds[0], 19)).toMatchObject({ items_total: 19_000, freight_fee: 800 + 18 * 200 });
    expect(await checkoutTo(customer.token, 'CN-SH', product.skuIds[0], 20)).toMatchObject({ items_total: 20_000, freight_fee: 0, total: 20_000 });
    // The region override replaces every term: other fees, and never free.
    expect(await checkoutTo(customer.token, 'CN-XZ', product.skuIds[0], 20)).toMatchObject({ freight_fee: 2_000 + 19 * 1_000, total: 41_000 });
    // A region is one of the list exactly as it spells it, as the document's enum says.
    const lower = await t.api('POST', '/api/checkout', { token: customer.token, body: { shipping_address: { ...ADDRESS, region: 'cn-xz' } } });
    expect(lower.body.error.details.problems).toEqual([expect.objectContaining({ field: 'shipping_address.region' })]);
  });

  it('sums the fees of each template group of a shop order; products without a template and other shops ship free', async () => {
    const shop = await newShop(t);
    const category = await newCategory(t);
    const a = await newProduct(t, { shopId: shop.id, categoryId: category.id, skus: [{ price: 500, stock: 50 }, { price: 700, stock: 50 }] });
    const b = await newProduct(t, { shopId: shop.id, categoryId: category.id, skus: [{ price: 300, stock: 50 }] });
    const free = await newProduct(t, { shopId: shop.id, categoryId: category.id, skus: [{ price: 100, stock: 50 }] });
    await newFreightTemplate(t, shop.id, { firstUnitFee: 1_000, additionalUnitFee: 100 }, [a.id]);
    await newFreightTemplate(t, shop.id, { firstUnitFee: 600, additionalUnitFee: 0 }, [b.id]);
    const other = await shopWithProduct(t, [{ price: 100, stock: 50 }]);
    const customer = await newCustomer(t);
    // Two SKUs of product a share one group: 3 units = 1000 + 2 x 100.
    await addToCart(t, customer.token, a.skuIds[0], 2);
    await addToCart(t, customer.token, a.skuIds[1], 1);
    await addToCart(t, customer.token, b.skuIds[0], 4);
    await addToCart(t, customer.token, free.skuIds[0], 5);
    await addToCart(t, customer.token, other.product.skuIds[0], 1);
    const orders = await checkoutOk(t, customer.token);
    const byShop = Object.fromEntries(orders.map((o: any) => [o.shop.id, o]));
    expect(byShop[shop.id]).toMatchObject({ items_total: 1700 + 1200 + 500, freight_fee: 1_200 + 600, total: 3400 + 1800 });
    expect(byShop[other.shop.id]).toMatchObject({ freight_fee: 0, total: 100 });
  });

  it('looks at the shop order amount after discount for the threshold', async () => {
    const { shop, product } = await shopWithProduct(t, [{ price: 1000, stock: 10 }]);
    await newFreightTemplate(t, shop.id, { firstUnitFee: 500, additionalUnitFee: 0, freeThreshold: 10_000 }, [product.id]);
    const draft = (discount: number) => ({
      shopId: shop.id,
      discount,
      items: [{ skuId: product.skuIds[0], skuName: 'v', productId: product.id, productName: 'p', unitPrice: 1000, quantity: 10, pricing: ItemPricing.Standard }],
    });
    expect(freightFees([draft(0)], await freightTermsOfDrafts(t.em(), [draft(0)], 'CN-SH')).get(shop.id)).toBe(0);
    expect(freightFees([draft(1)], await freightTermsOfDrafts(t.em(), [draft(1)], 'CN-SH')).get(shop.id)).toBe(500);
    expect(groupFee({ firstUnitFee: 500, additionalUnitFee: 50, freeThreshold: null }, 3, 1e9)).toBe(600);
    expect(groupFee({ firstUnitFee: 500, additionalUnitFee: 50, freeThreshold: 0 }, 3, 0)).toBe(0);
  });

  it('refuses a fee sent by the client, anywhere in the body, and creates nothing', async () => {
    const { shop, product } = await shopWithProduct(t, [{ price: 1000, stock: 10 }]);
    await newFreightTemplate(t, shop.id, TERMS, [product.id]);
    const customer = await newCustomer(t);
    await addToCart(t, customer.token, product.skuIds[0], 2);
    for (const body of [
      checkoutBody({ freight_fee: 0 }),
      checkoutBody({ total: 2000 }),
      { shipping_address: { ...ADDRESS, freight_fee: 0 } },
    ]) {
      const res = await t.api('POST', '/api/checkout', { token: customer.token, body });
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('VALIDATION_FAILED');
    }
    expect(await t.sql('select id from shop_order where customer_id = ?', [customer.id])).toEqual([]);
    expect((await t.api('GET', '/api/cart', { token: customer.token })).body.lines).toHaveLength(1);
    const [order] = await checkoutOk(t, customer.token);
    expect(order).toMatchObject({ freight_fee: 1000, total: 3000 });
  });

  it('requires a complete shipping address with a region code', async () => {
    const { product } = await shopWithProduct(t);
    const customer = await newCustomer(t);
    await addToCart(t, customer.token, product.skuIds[0], 1);
    const bad = [
      {},
      { shipping_address: { ...ADDRESS, region: undefined } },
      { shipping_address: { ...ADDRESS, region: 'Shanghai' } },
      { shipping_address: { ...ADDRESS, recipient: ' ' } },
      { shipping_address: { ...ADDRESS, phone: 'call me' } },
      { shipping_address: { ...ADDRESS, address: '' } },
    ];
    for (const body of bad) {
      const res = await t.api('POST', '/api/checkout', { token: customer.token, body });
      expect(res.status).toBe(400);
    }
    const res = await t.api('POST', '/api/checkout', { token: customer.token, body: { shipping_address: { ...ADDRESS, region: 'xx-yyyy' } } });
    expect(res.body.error.details.problems).toEqual([expect.objectContaining({ field: 'shipping_address.region' })]);
    expect(await t.sql('select id from shop_order where customer_id = ?', [customer.id])).toEqual([]);
  });
});

describe('freight templates', () => {
  it('are created, listed, replaced as a whole and deleted by their shop', async () => {
    const shop = await newShop(t);
    const operator = await newOperator(t, shop.id);
    const created = await t.api('POST', '/api/merchant/freight-templates', {
      token: operator.token,
      body: { name: 'Standard', first_unit_fee: 800, additional_unit_fee: 200, free_threshold: 9900, regions: [{ region: 'CN-XZ', first_unit_fee: 2000, additional_unit_fee: 1000 }] },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      shop_id: shop.id, name: 'Standard', first_unit_fee: 800, additional_unit_fee: 200, free_threshold: 9900,
      regions: [{ region: 'CN-XZ', first_unit_fee: 2000, additional_unit_fee: 1000, free_threshold: null }],
    });
    const id = created.body.id;
    const replaced = await t.api('PUT', `/api/merchant/freight-templates/${id}`, {
      token: operator.token,
      body: { name: 'Heavy', first_unit_fee: 1500, additional_unit_fee: 500, regions: [{ region: 'CN-XJ', first_unit_fee: 3000, additional_unit_fee: 1500, free_threshold: 50000 }] },
    });
    expect(replaced.body).toMatchObject({ name: 'Heavy', free_threshold: null, regions: [{ region: 'CN-XJ', free_threshold: 50000 }] });
    const list = await t.api('GET', '/api/merchant/freight-templates', { token: operator.token });
    expect(list.body).toMatchObject({ total: 1, page: 1, page_size: 20, items: [{ id, name: 'Heavy' }] });
    expect((await t.api('DELETE', `/api/merchant/freight-templates/${id}`, { token: operator.token })).status).toBe(204);
    expect((await t.api('GET', '/api/merchant/freight-templates', { token: operator.token })).body.total).toBe(0);
    expect(await t.sql('select * from freight_template_region where template_id = ?', [id])).toEqual([]);
  });

  it('refuses bad terms with 400 and changes nothing', async () => {
    const shop = await newShop(t);
    const operator = await newOperator(t, shop.id);
    const base = { name: 'T', first_unit_fee: 800, additional_unit_fee: 200 };
    for (const body of [
      { ...base, name: '' },
      { ...base, first_unit_fee: -1 },
      { ...base, additional_unit_fee: 1.5 },
      { ...base, free_threshold: -5 },
      { ...base, first_unit_fee: '800' },
      { ...base, regions: [{ region: 'CN-XZ', first_unit_fee: 1, additional_unit_fee: 1 }, { region: 'cn-xz', first_unit_fee: 2, additional_unit_fee: 2 }] },
      { ...base, regions: [{ region: 'Tibet', first_unit_fee: 1, additional_unit_fee: 1 }] },
      { ...base, regions: [{ region: 'cn-xz', first_unit_fee: 1, additional_unit_fee: 1 }] },
    ]) {
      expect((await t.api('POST', '/api/merchant/freight-templates', { token: operator.token, body })).status).toBe(400);
    }
    expect(await t.sql('select id from freight_template where shop_id = ?', [shop.id])).toEqual([]);
  });

  it("keeps shops apart: another shop's template or product is 404, and only operators manage templates", async () => {
    const { shop, product } = await shopWithProduct(t);
    const operator = await newOperator(t, shop.id);
    const other = await shopWithProduct(t);
    const otherOperator = await newOperator(t, other.shop.id);
    const mine = await newFreightTemplate(t, shop.id, { firstUnitFee: 100, additionalUnitFee: 0 });
    const theirs = await newFreightTemplate(t, other.shop.id, { firstUnitFee: 100, additionalUnitFee: 0 });
    const body = { name: 'X', first_unit_fee: 1, additional_unit_fee: 1 };

    expect((await t.api('PUT', `/api/merchant/freight-templates/${mine.id}`, { token: otherOperator.token, body })).status).toBe(404);
    expect((await t.api('DELETE', `/api/merchant/freight-templates/${mine.id}`, { token: otherOperator.token })).status).toBe(404);
    expect((await t.api('GET', '/api/merchant/freight-templates', { token: otherOperator.token })).body.items.map((i: any) => i.id)).toEqual([theirs.id]);
    const assignTheirs = await t.api('PUT', `/api/merchant/products/${product.id}/freight-template`, { token: operator.token, body: { freight_template_id: theirs.id } });
    expect(assignTheirs.status).toBe(404);
    const assignToTheirProduct = await t.api('PUT', `/api/merchant/products/${other.product.id}/freight-template`, { token: operator.token, body: { freight_template_id: mine.id } });
    expect(assignToTheirProduct.status).toBe(404);
    expect((await t.sql('select freight_template_id from product where id = any(?::int[])', [`{${product.id},${other.product.id}}`])).every((r: any) => r.freight_template_id === null)).toBe(true);

    const customer = await newCustomer(t);
    expect((await t.api('GET', '/api/merchant/freight-templates', { token: customer.token })).status).toBe(403);
    expect((await t.api('POST', '/api/merchant/freight-templates', { body })).status).toBe(401);
  });

  it('assigns a template to a product (null unassigns) and refuses to delete a template in use', async () => {
    const { shop, product } = await shopWithProduct(t);
    const operator = await newOperator(t, shop.id);
    const template = await newFreightTemplate(t, shop.id, { firstUnitFee: 100, additionalUnitFee: 0 });
    const assigned = await t.api('PUT', `/api/merchant/products/${product.id}/freight-template`, { token: operator.token, body: { freight_template_id: template.id } });
    expect(assigned.body).toEqual({ product_id: product.id, freight_template_id: template.id });
    const inUse = await t.api('DELETE', `/api/merchant/freight-templates/${template.id}`, { token: operator.token });
    expect(inUse.status).toBe(409);
    expect(inUse.body.error.code).toBe('FREIGHT_TEMPLATE_IN_USE');
    const cleared = await t.api('PUT', `/api/merchant/products/${product.id}/freight-template`, { token: operator.token, body: { freight_template_id: null } });
    expect(cleared.body.freight_template_id).toBeNull();
    expect((await t.api('DELETE', `/api/merchant/freight-templates/${template.id}`, { token: operator.token })).status).toBe(204);
  });

  it('never leaves a product on a deleted template when deletion and assignment race', async () => {
    const { shop, product } = await shopWithProduct(t);
    const operator = await newOperator(t, shop.id);
    for (let round = 0; round < 8; round++) {
      const template = await newFreightTemplate(t, shop.id, { firstUnitFee: 100, additionalUnitFee: 0 });
      const [assign, remove] = await Promise.all([
        t.api('PUT', `/api/merchant/products/${product.id}/freight-template`, { token: operator.token, body: { freight_template_id: template.id } }),
        t.api('DELETE', `/api/merchant/freight-templates/${template.id}`, { token: operator.token }),
      ]);
      // Exactly one wins: assigned and kept (409 on delete), or deleted (404 on assign).
      expect([[200, 409], [404, 204]]).toContainEqual([assign.status, remove.status]);
      const [row] = await t.sql('select freight_template_id from product where id = ?', [product.id]);
      expect(row.freight_template_id).toBe(assign.status === 200 ? template.id : null);
      await t.sql('update product set freight_template_id = null where id = ?', [product.id]);
    }
  });
});

describe('shipping companies', () => {
  it('lists the seeded active companies in order, without the legacy "other"', async () => {
    const res = await t.api('GET', '/api/shipping-companies');
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(['items']);
    expect(res.body.items[0]).toEqual({ code: 'sf', name: 'SF Express' });
    expect(res.body.items.map((c: any) => c.code)).toEqual(['sf', 'jd', 'ems', 'zto', 'yto', 'sto', 'yunda', 'jtexpress', 'deppon']);
  });

  it('are what shipments name: an unknown or inactive code is refused and nothing ships', async () => {
    const { shop, product } = await shopWithProduct(t);
    const operator = await newOperator(t, shop.id);
    const customer = await newCustomer(t, { available: 10_000, points: 0 });
    const order = await placeOrder(t, customer.token, product.skuIds[0]);
    await payOk(t, customer.token, order.id);
    for (const code of ['ups', 'other']) {
      const res = await t.api('POST', `/api/merchant/orders/${order.id}/shipments`, { token: operator.token, body: { company_code: code, tracking_number: 'T1' } });
      expect(res.status).toBe(422);
      expect(res.body.error).toMatchObject({ code: 'SHIPPING_COMPANY_UNKNOWN', details: { company_code: code } });
    }
    expect((await t.api('POST', `/api/merchant/orders/${order.id}/shipments`, { token: operator.token, body: { carrier: 'SF', tracking_number: 'T1' } })).status).toBe(400);
    expect(await t.sql('select id from shipment where order_id = ?', [order.id])).toEqual([]);
    const shipped = await t.api('POST', `/api/merchant/orders/${order.id}/shipments`, { token: operator.token, body: { company_code: 'JD', tracking_number: 'JD123' } });
    expect(shipped.body).toMatchObject({ status: 'shipped', shipments: [{ company_code: 'jd', carrier: 'JD Logistics', tracking_number: 'JD123' }] });
  });
});

describe('GraphQL door', () => {
  it('manages templates, assigns one and checks out with the computed fee', async () => {
    const { shop, product } = await shopWithProduct(t, [{ price: 1000, stock: 10 }]);
    const operator = await newOperator(t, shop.id);
    const created = await mutate(
      t,
      'createFreightTemplate',
      { name: 'G', firstUnitFee: 700, additionalUnitFee: 100, regions: [{ region: 'CN_XZ', firstUnitFee: 1500, additionalUnitFee: 500 }] },
      'template { id name firstUnitFee freeThreshold regions { region firstUnitFee freeThreshold } }',
      operator.token,
    );
    expect(created.errors).toBeUndefined();
    expect(created.payload.template).toMatchObject({ name: 'G', freeThreshold: null, regions: [{ region: 'CN_XZ', firstUnitFee: 1500, freeThreshold: null }] });
    const templateId = created.payload.template.id;
    const assigned = await mutate(t, 'assignFreightTemplate', { productId: product.id, freightTemplateId: templateId }, 'assignment { productId freightTemplateId }', operator.token);
    expect(assigned.payload.assignment).toEqual({ productId: product.id, freightTemplateId: templateId });
    const companies = await t.gql(`{ shippingCompanies { code name } }`);
    expect(companies.data.shippingCompanies).toContainEqual({ code: 'sf', name: 'SF Express' });

    const customer = await newCustomer(t);
    await addToCart(t, customer.token, product.skuIds[0], 2);
    const placed = await mutate(t, 'checkout', { shippingAddress: { ...ADDRESS, region: 'CN_XZ' } }, 'orders { freightFee total }', customer.token);
    expect(placed.payload.orders).toEqual([{ freightFee: 2000, total: 4000 }]);
    const inUse = await mutate(t, 'deleteFreightTemplate', { templateId }, 'deletedTemplateId', operator.token);
    expect(inUse.payload.deletedTemplateId).toBeNull();
    expect(inUse.userErrors).toEqual([{ code: 'FREIGHT_TEMPLATE_IN_USE', message: expect.any(String), field: null, details: expect.objectContaining({ templateId }) }]);
  });
});
