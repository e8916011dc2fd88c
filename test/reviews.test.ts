import { waitFor } from './support/subscriptions.js';
import { mutate } from './support/graphql.js';
import { startTestApp, type TestApp } from './support/harness.js';
import { newAdmin, newCategory, newCustomer, newOperator, newProduct, newShop } from './support/fixtures.js';
import { deliveredOrder, payOk, placeOrder, shipOk, shopWithProduct } from './support/shopping.js';
import { ratingSummaries } from '../src/services/catalog/rating-summary.js';
import type { DomainEvent } from '../src/shared/domain-event.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const FUNDS = { available: 1_000_000, points: 0 };

/** A shop with one product, its operator, and a helper that delivers one unit to a new customer and reviews it. */
async function reviewedShop(price = 1000) {
  const { shop, product } = await shopWithProduct(t, [{ price, stock: 100 }]);
  const operator = await newOperator(t, shop.id);
  const review = async (rating: number, text = `rated ${rating}`) => {
    const customer = await newCustomer(t, FUNDS);
    const order = await deliveredOrder(t, customer.token, operator.token, product.skuIds[0]);
    const res = await t.api('POST', `/api/orders/${order.id}/items/${order.items[0].id}/review`, { token: customer.token, body: { rating, text } });
    if (res.status !== 201) throw new Error(`review failed: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  };
  return { shop, product, operator, review };
}

describe('writing a review', () => {
  it("marks an order's items reviewed once reviewed, over both doors (the storefront offers the form only for the others)", async () => {
    const { shop, product } = await shopWithProduct(t, [{ price: 1000, stock: 10 }]);
    const operator = await newOperator(t, shop.id);
    const customer = await newCustomer(t, FUNDS);
    const order = await deliveredOrder(t, customer.token, operator.token, product.skuIds[0]);
    expect(order.items.map((i: { reviewed: boolean }) => i.reviewed)).toEqual([false]);
    await t.api('POST', `/api/orders/${order.id}/items/${order.items[0].id}/review`, { token: customer.token, body: { rating: 4, text: 'ok' } });
    const rest = await t.api('GET', `/api/orders/${order.id}`, { token: customer.token });
    expect(rest.body.items.map((i: { reviewed: boolean }) => i.reviewed)).toEqual([true]);
    const gql = await t.gql('query($id: Int!) { order(id: $id) { items { reviewed } } }', { id: order.id }, customer.token);
    expect(gql.data.order.items).toEqual([{ reviewed: true }]);
  });

  it('is for the buyer of a delivered line, once', async () => {
    const { shop, product } = await shopWithProduct(t, [{ price: 1000, stock: 10 }]);
    const operator = await newOperator(t, shop.id);
    const customer = await newCustomer(t, FUNDS);
    const order = await placeOrder(t, customer.token, product.skuIds[0], 2);
    const itemId = order.items[0].id;
    const path = `/api/orders/${order.id}/items/${itemId}/review`;
    const body = { rating: 5, text: 'Great kettle', image_urls: ['https://img.test/a.jpg'] };

    const pending = await t.api('POST', path, { token: customer.token, body });
    expect(pending.status).toBe(409);
    expect(pending.body.error).toMatchObject({ code: 'ORDER_NOT_DELIVERED', details: { status: 'pending_payment' } });
    await payOk(t, customer.token, order.id);
    await shipOk(t, operator.token, order.id);
    expect((await t.api('POST', path, { token: customer.token, body })).body.error.details.status).toBe('shipped');
    await t.api('POST', `/api/orders/${order.id}/confirm-delivery`, { token: customer.token });

    const stranger = await newCustomer(t);
    expect((await t.api('POST', path, { token: stranger.token, body })).status).toBe(404);
    expect((await t.api('POST', path, { token: operator.token, body })).status).toBe(403);
    expect((await t.api('POST', path, { body })).status).toBe(401);
    const otherOrder = await placeOrder(t, customer.token, product.skuIds[0]);
    expect((await t.api('POST', `/api/orders/${otherOrder.id}/items/${itemId}/review`, { token: customer.token, body })).status).toBe(404);

    const created = await t.api('POST', path, { token: customer.token, body });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      product_id: product.id, shop_id: shop.id, order_item_id: itemId, rating: 5, text: 'Great kettle',
      image_urls: ['https://img.test/a.jpg'], hidden: false, author: 'T***', created_at: expect.any(String),
    });
    expect(created.body).not.toHaveProperty('reply');
    const again = await t.api('POST', path, { token: customer.token, body: { rating: 1, text: 'changed my mind' } });
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('REVIEW_EXISTS');
    expect(await t.sql('select rating from review where order_item_id = ?', [itemId])).toEqual([{ rating: 5 }]);
  });

  it('stores one review when the same line is reviewed many times at once', async () => {
    const { shop, product } = await shopWithProduct(t);
    const operator = await newOperator(t, shop.id);
    const customer = await newCustomer(t, FUNDS);
    const order = await deliveredOrder(t, customer.token, operator.token, product.skuIds[0]);
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        t.api('POST', `/api/orders/${order.id}/items/${order.items[0].id}/review`, { token: customer.token, body: { rating: 1 + (i % 5), text: `try ${i}` } }),
      ),
    );
    expect(results.filter((r) => r.status === 201)).toHaveLength(1);
    expect(results.filter((r) => r.status === 409).every((r) => r.body.error.code === 'REVIEW_EXISTS')).toBe(true);
    expect(await t.sql('select count(*)::int as n from review where order_item_id = ?', [order.items[0].id])).toEqual([{ n: 1 }]);
  });

  it('refuses bad ratings, texts and images with 400 and stores nothing', async () => {
    const { shop, product } = await shopWithProduct(t);
    const operator = await newOperator(t, shop.id);
    const customer = await newCustomer(t, FUNDS);
    const order = await deliveredOrder(t, customer.token, operator.token, product.skuIds[0]);
    const path = `/api/orders/${order.id}/items/${order.items[0].id}/review`;
    for (const body of [
      { rating: 0, text: 'x' },
      { rating: 6, text: 'x' },
      { rating: 3.5, text: 'x' },
      { rating: '5', text: 'x' },
      { rating: 5, text: '   ' },
      { rating: 5, text: 'x'.repeat(2001) },
      { rating: 5, text: 'x', image_urls: ['javascript:alert(1)'] },
      { rating: 5, text: 'x', image_urls: Array.from({ length: 10 }, (_, i) => `https://img.test/${i}.jpg`) },
    ]) {
      const res = await t.api('POST', path, { token: customer.token, body });
      expect([res.status, res.body.error.code]).toEqual([400, 'VALIDATION_FAILED']);
    }
    expect(await t.sql('select id from review where order_item_id = ?', [order.items[0].id])).toEqual([]);
  });
});

describe('merchant replies', () => {
  it('lets the shop reply once to a review of its own product, and shows the reply publicly', async () => {
    const { product, operator, review } = await reviewedShop();
    const written = await review(4);
    const other = await shopWithProduct(t);
    const otherOperator = await newOperator(t, other.shop.id);
    const path = `/api/merchant/reviews/${written.id}/reply`;

    const foreign = await t.api('POST', path, { token: otherOperator.token, body: { text: 'Not ours' } });
    expect(foreign.status).toBe(404);
    const customer = await newCustomer(t);
    expect((await t.api('POST', path, { token: customer.token, body: { text: 'hi' } })).status).toBe(403);
    expect((await t.api('POST', path, { token: operator.token, body: { text: '' } })).status).toBe(400);

    const replied = await t.api('POST', path, { token: operator.token, body: { text: 'Thank you!' } });
    expect(replied.status).toBe(200);
    expect(replied.body.reply).toEqual({ text: 'Thank you!', replied_at: expect.any(String) });
    const second = await t.api('POST', path, { token: operator.token, body: { text: 'Again' } });
    expect(second.status).toBe(409);
    expect(second.body.error.code).toBe('REVIEW_ALREADY_REPLIED');

    const page = await t.api('GET', `/api/products/${product.id}/reviews`);
    expect(page.body.items[0].reply.text).toBe('Thank you!');
    const waiting = await t.api('GET', '/api/merchant/reviews?replied=false', { token: operator.token });
    expect(waiting.body.total).toBe(0);
    expect((await t.api('GET', '/api/merchant/reviews', { token: operator.token })).body.items.map((r: any) => r.id)).toEqual([written.id]);
    expect((await t.api('GET', '/api/merchant/reviews', { token: otherOperator.token })).body.total).toBe(0);
  });

  it('gives exactly one reply when replies race', async () => {
    const { operator, review } = await reviewedShop();
    const written = await review(3);
    const results = await Promise.all(
      Array.from({ length: 6 }, (_, i) => t.api('POST', `/api/merchant/reviews/${written.id}/reply`, { token: operator.token, body: { text: `reply ${i}` } })),
    );
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    expect(results.filter((r) => r.status === 409)).toHaveLength(5);
  });
});

describe('public reads, summary and moderation', () => {
  it('pages visible reviews newest first with a rating summary; hidden ones leave both, and come back when shown', async () => {
    const { shop, product, review } = await reviewedShop();
    const r5 = await review(5);
    const r4 = await review(4);
    const r1 = await review(1, 'Spam spam spam');
    const admin = await newAdmin(t);
    // Every read names the product and the shop (moderators read names, not ids), over both doors.
    const [{ productName, shopName }] = await t.sql<{ productName: string; shopName: string }>(
      'select p.name as "productName", s.name as "shopName" from product p join shop s on s.id = p.shop_id where p.id = ?', [product.id]);
    expect(r1).toMatchObject({ product_id: product.id, product_name: productName, shop_id: shop.id, shop_name: shopName });
    const named = await t.gql('query { adminReviews(pageSize: 1) { items { id productName shopName } } }', {}, admin.token);
    expect(named.data.adminReviews.items).toEqual([{ id: r1.id, productName, shopName }]);

    const page1 = await t.api('GET', `/api/products/${product.id}/reviews?page_size=2`);
    expect(page1.status).toBe(200);
    expect(page1.body).toMatchObject({ page: 1, page_size: 2, total: 3 });
    expect(page1.body.items.map((r: any) => r.id)).toEqual([r1.id, r4.id]);
    expect(page1.body.summary).toEqual({
      product_id: product.id, count: 3, average: 3.33,
      per_star: [{ rating: 1, count: 1 }, { rating: 2, count: 0 }, { rating: 3, count: 0 }, { rating: 4, count: 1 }, { rating: 5, count: 1 }],
    });
    expect((await t.api('GET', `/api/products/${product.id}/reviews?page=2&page_size=2`)).body.items.map((r: any) => r.id)).toEqual([r5.id]);
    expect((await t.api('GET', `/api/products/${product.id}/reviews?rating=4`)).body).toMatchObject({ total: 1, items: [{ id: r4.id }] });

    const hidden = await t.api('POST', `/api/admin/reviews/${r1.id}/hide`, { token: admin.token });
    expect(hidden.body).toMatchObject({ id: r1.id, hidden: true });
    const after = await t.api('GET', `/api/products/${product.id}/reviews`);
    expect(after.body.items.map((r: any) => r.id)).toEqual([r4.id, r5.id]);
    expect(after.body.total).toBe(2);
    expect(after.body.summary).toMatchObject({ count: 2, average: 4.5, per_star: expect.arrayContaining([{ rating: 1, count: 0 }]) });
    expect((await t.api('GET', `/api/products/${product.id}/reviews?rating=1`)).body).toMatchObject({ total: 0, items: [] });
    expect((await ratingSummaries(t.em(), [product.id]))[0].count).toBe(2);
    // Product reads carry the same summary: the REST detail, and GraphQL through its loader.
    // (the detail reads it in its own statement, the reviews page and the loader in a batched one)
    expect((await t.api('GET', `/api/products/${product.id}`)).body.rating).toEqual(after.body.summary);
    const gql = await t.gql(`query($id: Int!) { product(id: $id) { rating { count average perStar { rating count } } } }`, { id: product.id });
    expect(gql.data.product.rating).toMatchObject({ count: 2, average: 4.5, perStar: expect.arrayContaining([{ rating: 1, count: 0 }, { rating: 5, count: 1 }]) });
    const moderation = await t.api('GET', `/api/admin/reviews?hidden=true&product_id=${product.id}`, { token: admin.token });
    expect(moderation.body).toMatchObject({ total: 1, items: [{ id: r1.id, hidden: true }] });

    // Hiding twice is harmless; showing brings it back.
    expect((await t.api('POST', `/api/admin/reviews/${r1.id}/hide`, { token: admin.token })).status).toBe(200);
    await t.api('POST', `/api/admin/reviews/${r1.id}/show`, { token: admin.token });
    expect((await t.api('GET', `/api/products/${product.id}/reviews`)).body.summary.count).toBe(3);
  });

  it("moderation finds reviews by words of their text or their product's or shop's name, and by stars, over both doors; bad filters are refused", async () => {
    const { shop, product, review } = await reviewedShop();
    const word = `zq${Date.now().toString(36)}`;
    const complaint = await review(1, `Arrived broken, ${word} never again`);
    const praise = await review(5, 'Lovely and quick');
    const admin = await newAdmin(t);
    const [{ name: productName }] = await t.sql<{ name: string }>('select name from product where id = ?', [product.id]);
    const ids = async (query: string) => {
      const res = await t.api('GET', `/api/admin/reviews?${query}`, { token: admin.token });
      expect(res.status).toBe(200);
      return res.body.items.map((r: { id: number }) => r.id);
    };
    // A word of the text, in another case; a part of the product's name and of the shop's.
    expect(await ids(`q=${word.toUpperCase()}`)).toEqual([complaint.id]);
    expect(await ids(`q=${encodeURIComponent(productName.slice(1, 6))}&product_id=${product.id}`)).toEqual([praise.id, complaint.id]);
    expect(await ids(`q=${encodeURIComponent(shop.name)}&rating=5`)).toEqual([praise.id]);
    // The pattern's own characters are the words' (a % finds a %, not everything).
    expect(await ids(`q=%25&product_id=${product.id}`)).toEqual([]);
    const gql = await t.gql('query($q: String, $rating: Int) { adminReviews(q: $q, rating: $rating) { total items { id } } }', { q: word, rating: 1 }, admin.token);
    expect(gql.data.adminReviews).toEqual({ total: 1, items: [{ id: complaint.id }] });
    expect((await t.gql('query($q: String, $rating: Int) { adminReviews(q: $q, rating: $rating) { total } }', { q: word, rating: 5 }, admin.token)).data.adminReviews.total).toBe(0);
    for (const bad of ['rating=6', 'rating=0', 'rating=two', `q=${'x'.repeat(201)}`]) {
      const res = await t.api('GET', `/api/admin/reviews?${bad}`, { token: admin.token });
      expect([bad, res.status, res.body.error.code]).toEqual([bad, 400, 'VALIDATION_FAILED']);
    }
    const refused = await t.gql('query { adminReviews(rating: 9) { total } }', {}, admin.token);
    expect(refused.errors?.[0]?.extensions?.code).toBe('VALIDATION_FAILED');
  });

  it('moderation is for admins only, and an unknown review is 404', async () => {
    const { operator, review } = await reviewedShop();
    const written = await review(2);
    const customer = await newCustomer(t);
    const admin = await newAdmin(t);
    expect((await t.api('POST', `/api/admin/reviews/${written.id}/hide`, { token: operator.token })).status).toBe(403);
    expect((await t.api('POST', `/api/admin/reviews/${written.id}/hide`, { token: customer.token })).status).toBe(403);
    expect((await t.api('POST', `/api/admin/reviews/${written.id}/hide`)).status).toBe(401);
    expect((await t.api('GET', '/api/admin/reviews', { token: operator.token })).status).toBe(403);
    expect((await t.api('POST', '/api/admin/reviews/99999999/hide', { token: admin.token })).status).toBe(404);
    expect(await t.sql('select hidden from review where id = ?', [written.id])).toEqual([{ hidden: false }]);
  });

  it('answers 404 for an unknown or unpublished product and 400 for a bad page', async () => {
    const shop = await newShop(t);
    const category = await newCategory(t);
    const draft = await newProduct(t, { shopId: shop.id, categoryId: category.id, status: 'draft' });
    expect((await t.api('GET', `/api/products/${draft.id}/reviews`)).status).toBe(404);
    expect((await t.api('GET', '/api/products/99999999/reviews')).status).toBe(404);
    const { product } = await shopWithProduct(t);
    expect((await t.api('GET', `/api/products/${product.id}/reviews?page_size=101`)).status).toBe(400);
    expect((await t.api('GET', `/api/products/${product.id}/reviews?rating=6`)).status).toBe(400);
    const empty = await t.api('GET', `/api/products/${product.id}/reviews`);
    expect(empty.body).toMatchObject({ items: [], total: 0, summary: { count: 0, average: null } });
  });

  it('ratingSummaries answers a batch of products in one query, in key order', async () => {
    const a = await reviewedShop();
    const b = await reviewedShop();
    await a.review(5);
    await a.review(2);
    await b.review(3);
    const { product: none } = await shopWithProduct(t);
    const em = t.em();
    t.resetQueryLog();
    const summaries = await ratingSummaries(em, [b.product.id, none.id, a.product.id]);
    expect(t.queries.filter((q) => /select/i.test(q))).toHaveLength(1);
    expect(summaries.map((s) => [s.productId, s.count, s.average])).toEqual([[b.product.id, 1, 3], [none.id, 0, null], [a.product.id, 2, 3.5]]);
    expect(summaries[2].perStar.map((s) => s.count)).toEqual([0, 1, 0, 0, 1]);
    expect(await ratingSummaries(em, [])).toEqual([]);
  });

  it('emits review.created to the shop after commit', async () => {
    const seen: DomainEvent[] = [];
    const stop = t.events.subscribe((e) => seen.push(e));
    try {
      const { shop, product, review } = await reviewedShop();
      const written = await review(5);
      // Only this shop's events: a review written by an earlier test may still be arriving.
      const mine = () => seen.filter((e) => e.type === 'review.created' && e.shopIds.includes(shop.id));
      await waitFor(() => mine().length > 0);
      expect(mine()).toEqual([
        expect.objectContaining({ shopIds: [shop.id], payload: { reviewId: written.id, productId: product.id, rating: 5 } }),
      ]);
    } finally {
      stop();
    }
  });
});

describe('GraphQL door', () => {
  it('reviews, reads with the summary, replies and moderates through the same rules', async () => {
    const { shop, product } = await shopWithProduct(t);
    const operator = await newOperator(t, shop.id);
    const customer = await newCustomer(t, FUNDS);
    const admin = await newAdmin(t);
    const order = await deliveredOrder(t, customer.token, operator.token, product.skuIds[0]);
    const input = { orderId: order.id, orderItemId: order.items[0].id, rating: 4, text: 'Solid' };
    const review = 'review { id rating text imageUrls hidden }';
    const written = await mutate(t, 'reviewOrderItem', input, review, customer.token);
    expect(written.payload.review).toMatchObject({ rating: 4, text: 'Solid', imageUrls: [], hidden: false });
    expect((await mutate(t, 'reviewOrderItem', input, review, customer.token)).userErrors.map((e) => e.code)).toEqual(['REVIEW_EXISTS']);
    const badImage = await mutate(t, 'reviewOrderItem', { ...input, imageUrls: ['https://img.test/a.png', 'ftp://nope'] }, review, customer.token);
    expect(badImage.userErrors.map((e) => [e.code, e.field])).toEqual([['VALIDATION_FAILED', ['input', 'imageUrls', '1']]]);
    const id = written.payload.review.id;

    const replied = await mutate(t, 'replyToReview', { reviewId: id, text: 'Thanks' }, 'review { reply { text } }', operator.token);
    expect(replied.payload.review.reply.text).toBe('Thanks');
    const read = `query($p: Int!) { productReviews(productId: $p) { total items { id author reply { text } } summary { count average perStar { rating count } } } }`;
    const before = await t.gql(read, { p: product.id });
    expect(before.data.productReviews).toMatchObject({ total: 1, items: [{ id, reply: { text: 'Thanks' } }], summary: { count: 1, average: 4 } });
    expect((await mutate(t, 'hideReview', { reviewId: id }, 'review { hidden }', admin.token)).payload.review.hidden).toBe(true);
    const after = await t.gql(read, { p: product.id });
    expect(after.data.productReviews).toMatchObject({ total: 0, items: [], summary: { count: 0, average: null } });
    expect((await mutate(t, 'hideReview', { reviewId: id }, 'review { id }', operator.token)).errors?.[0].extensions.code).toBe('FORBIDDEN');
  });
});
