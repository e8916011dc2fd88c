import { isoString } from '../src/shared/iso-date.js';
import { camelKeys, snakeKeys } from '../src/shared/case.js';

describe('REST response shaping', () => {
  it('writes every Date exactly as JSON.stringify would', () => {
    const dates = [
      new Date(0),
      new Date('2026-11-25T09:05:03.007Z'),
      new Date('2000-02-29T23:59:59.999Z'),
      new Date('1999-12-31T00:00:00.000Z'),
      new Date('9999-12-31T23:59:59.999Z'),
      new Date('0999-01-01T00:00:00.000Z'), // below 1000: still four digits
      new Date('-000001-01-01T00:00:00.000Z'), // six-digit years
      new Date('+010000-01-01T00:00:00.000Z'),
      new Date(Date.UTC(2026, 0, 1, 1, 2, 3, 45)),
    ];
    // And a spread of instants over the years in between.
    for (let i = 0; i < 2000; i++) dates.push(new Date(Math.floor(Math.random() * 8.64e15 * 0.05) * (i % 2 ? 1 : -0.2)));
    for (const date of dates) expect(isoString(date)).toBe(date.toISOString());
    expect(isoString(new Date(Number.NaN))).toBeNull();
    expect(JSON.parse(JSON.stringify({ at: new Date(Number.NaN) }))).toEqual({ at: null });
  });

  it('snake_cases keys at any depth and turns Dates into the text JSON would hold', () => {
    const at = new Date('2026-11-25T09:05:03.007Z');
    const body = { createdAt: at, shop: { shopId: 1, updatedAt: at }, skus: [{ skuId: 2, soldAt: null }], note: 'stayCamel' };
    const shaped = snakeKeys(body);
    expect(shaped).toEqual({
      created_at: '2026-11-25T09:05:03.007Z',
      shop: { shop_id: 1, updated_at: '2026-11-25T09:05:03.007Z' },
      skus: [{ sku_id: 2, sold_at: null }],
      note: 'stayCamel',
    });
    expect(camelKeys({ sku_id: 3, page_size: 20 })).toEqual({ skuId: 3, pageSize: 20 });
  });
});
