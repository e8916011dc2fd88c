import { mutate } from './support/graphql.js';
import { startTestApp, type TestApp } from './support/harness.js';
import { newCustomer, newOperator, newShop, type TestUser } from './support/fixtures.js';
import { SHIPPING_REGIONS } from '../src/services/shipping/regions.js';
import { ADDRESS_BOOK_LIMIT } from '../src/services/shipping/address-book.service.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const HUBEI = { recipient: '李雷', phone: '+86 139 0000 0001', region: 'CN-HB', address: '武汉市洪山区珞喻路 1 号' };
const add = (user: TestUser, body: Record<string, unknown>) => t.api('POST', '/api/me/addresses', { token: user.token, body });
const list = async (user: TestUser) => (await t.api('GET', '/api/me/addresses', { token: user.token })).body.items as any[];
const rows = async (user: TestUser) => (await t.sql('select id, is_default from saved_address where user_id = ? order by id', [user.id])) as { id: number; is_default: boolean }[];

describe('regions', () => {
  it('lists the 31 mainland provinces, Hong Kong, Macau and Taiwan, over both doors, signed out', async () => {
    const rest = await t.api('GET', '/api/regions');
    expect(rest.status).toBe(200);
    const codes = rest.body.items.map((r: { code: string }) => r.code);
    expect(codes).toHaveLength(34);
    expect(new Set(codes).size).toBe(34);
    expect(codes.filter((c: string) => !['CN-HK', 'CN-MO', 'CN-TW'].includes(c))).toHaveLength(31);
    expect(rest.body.items).toContainEqual({ code: 'CN-HB', name: 'Hubei', local_name: '湖北' });
    // By name, as a shopper looks for theirs: Anhui first, Zhejiang last, Hebei before Henan before Hubei.
    const names = rest.body.items.map((r: { name: string }) => r.name);
    expect(names).toEqual([...names].sort((a: string, b: string) => a.localeCompare(b, 'en')));
    expect([names[0], names.at(-1)]).toEqual(['Anhui', 'Zhejiang']);
    expect(names.indexOf('Hebei')).toBeLessThan(names.indexOf('Henan'));
    expect(names.indexOf('Henan')).toBeLessThan(names.indexOf('Hubei'));
    const gql = await t.gql('{ regions { code name localName } }');
    // GraphQL spells each code as its RegionCode enum value (CN_HB for CN-HB), in the same order.
    expect(gql.data.regions).toEqual(rest.body.items.map((r: { code: string; name: string; local_name: string }) => ({ code: r.code.replace('-', '_'), name: r.name, localName: r.local_name })));
    expect(gql.data.regions).toHaveLength(SHIPPING_REGIONS.length);
  });
});

describe('address book', () => {
  it('saves addresses; the first is the default, another can take it over; the default is listed first', async () => {
    const customer = await newCustomer(t);
    const first = await add(customer, HUBEI);
    expect(first.status).toBe(201);
    expect(first.body).toEqual({ id: expect.any(Number), ...HUBEI, is_default: true, created_at: expect.any(String) });
    const second = await add(customer, { ...HUBEI, region: 'CN-XZ', address: '拉萨市 1 号' });
    expect(second.body).toMatchObject({ region: 'CN-XZ', is_default: false });
    expect((await list(customer)).map((a) => a.id)).toEqual([first.body.id, second.body.id]);

    const moved = await t.api('PUT', `/api/me/addresses/${second.body.id}/default`, { token: customer.token });
    expect(moved.status).toBe(200);
    expect(moved.body.is_default).toBe(true);
    expect((await list(customer)).map((a) => [a.id, a.is_default])).toEqual([[second.body.id, true], [first.body.id, false]]);

    const third = await add(customer, { ...HUBEI, region: 'CN-HK', is_default: true });
    expect(third.body.is_default).toBe(true);
    expect((await rows(customer)).filter((r) => r.is_default).map((r) => r.id)).toEqual([third.body.id]);
  });

  it('edits the fields sent, and deleting the default hands it to the newest one left', async () => {
    const customer = await newCustomer(t);
    const a = (await add(customer, HUBEI)).body;
    const b = (await add(customer, { ...HUBEI, region: 'CN-GD' })).body;
    const edited = await t.api('PATCH', `/api/me/addresses/${b.id}`, { token: customer.token, body: { address: '广州市天河区 2 号' } });
    expect(edited.status).toBe(200);
    expect(edited.body).toMatchObject({ id: b.id, region: 'CN-GD', address: '广州市天河区 2 号', recipient: HUBEI.recipient, is_default: false });
    expect((await t.api('DELETE', `/api/me/addresses/${a.id}`, { token: customer.token })).status).toBe(204);
    expect(await rows(customer)).toEqual([{ id: b.id, is_default: true }]);
  });

  it('refuses a region freight does not know, a bad phone, unknown fields, and changes nothing', async () => {
    const customer = await newCustomer(t);
    for (const body of [{ ...HUBEI, region: 'US-CA' }, { ...HUBEI, region: 'CN-ZZ' }, { ...HUBEI, phone: 'call me' }, { ...HUBEI, fee: 0 }, { ...HUBEI, recipient: '' }]) {
      const res = await add(customer, body);
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('VALIDATION_FAILED');
    }
    expect(await rows(customer)).toEqual([]);
  });

  it("keeps each customer's book to themselves: another's address is 404 and stays as it was", async () => {
    const owner = await newCustomer(t);
    const other = await newCustomer(t);
    const a = (await add(owner, HUBEI)).body;
    expect((await t.api('PATCH', `/api/me/addresses/${a.id}`, { token: other.token, body: { address: 'x' } })).status).toBe(404);
    expect((await t.api('PUT', `/api/me/addresses/${a.id}/default`, { token: other.token })).status).toBe(404);
    expect((await t.api('DELETE', `/api/me/addresses/${a.id}`, { token: other.token })).status).toBe(404);
    expect(await list(owner)).toEqual([a]);
    expect(await list(other)).toEqual([]);
    const operator = await newOperator(t, (await newShop(t)).id);
    expect((await t.api('GET', '/api/me/addresses', { token: operator.token })).status).toBe(403);
    expect((await t.api('GET', '/api/me/addresses')).status).toBe(401);
  });

  it(`keeps at most ${ADDRESS_BOOK_LIMIT} addresses, also when added concurrently`, async () => {
    const customer = await newCustomer(t);
    const results = await Promise.all(Array.from({ length: ADDRESS_BOOK_LIMIT + 5 }, (_, i) => add(customer, { ...HUBEI, address: `${i} 号`, is_default: i % 2 === 0 })));
    expect(results.filter((r) => r.status === 201)).toHaveLength(ADDRESS_BOOK_LIMIT);
    const refused = results.filter((r) => r.status !== 201);
    expect(refused.map((r) => [r.status, r.body.error.code, r.body.error.details.limit])).toEqual(Array(5).fill([422, 'ADDRESS_BOOK_FULL', ADDRESS_BOOK_LIMIT]));
    const stored = await rows(customer);
    expect(stored).toHaveLength(ADDRESS_BOOK_LIMIT);
    expect(stored.filter((r) => r.is_default)).toHaveLength(1);
  });

  it('keeps exactly one default when several addresses are made default at once', async () => {
    const customer = await newCustomer(t);
    const ids: number[] = [];
    for (let i = 0; i < 6; i++) ids.push((await add(customer, { ...HUBEI, address: `${i}` })).body.id);
    const results = await Promise.all(ids.map((id) => t.api('PUT', `/api/me/addresses/${id}/default`, { token: customer.token })));
    expect(results.map((r) => r.status)).toEqual(Array(6).fill(200));
    expect((await rows(customer)).filter((r) => r.is_default)).toHaveLength(1);
  });

  it('works over GraphQL with the same rules and user errors', async () => {
    const customer = await newCustomer(t);
    const added = await mutate(t, 'addAddress', { ...HUBEI, region: 'CN_HB' }, 'address { id region isDefault }', customer.token);
    expect(added.userErrors).toEqual([]);
    expect(added.payload.address).toMatchObject({ region: 'CN_HB', isDefault: true });
    // A region the enum lacks does not fit the schema: refused before the mutation runs.
    const bad = await mutate(t, 'addAddress', { ...HUBEI, region: 'XX_YY' }, 'address { id }', customer.token);
    expect(bad.errors?.map((e: { extensions: { code: string } }) => e.extensions.code)).toEqual(['BAD_USER_INPUT']);
    const blank = await mutate(t, 'addAddress', { ...HUBEI, region: 'CN_HB', recipient: ' ' }, 'address { id }', customer.token);
    expect(blank.userErrors[0]).toMatchObject({ code: 'VALIDATION_FAILED', field: ['input', 'recipient'] });
    const second = await mutate(t, 'addAddress', { ...HUBEI, region: 'CN_MO' }, 'address { id }', customer.token);
    const moved = await mutate(t, 'setDefaultAddress', { addressId: second.payload.address.id }, 'address { id isDefault }', customer.token);
    expect(moved.payload.address).toEqual({ id: second.payload.address.id, isDefault: true });
    const updated = await mutate(t, 'updateAddress', { addressId: added.payload.address.id, phone: '13900000002' }, 'address { phone isDefault }', customer.token);
    expect(updated.payload.address).toEqual({ phone: '13900000002', isDefault: false });
    const listed = await t.gql('{ myAddresses { id isDefault } }', undefined, customer.token);
    expect(listed.data.myAddresses).toEqual([{ id: second.payload.address.id, isDefault: true }, { id: added.payload.address.id, isDefault: false }]);
    const gone = await mutate(t, 'deleteAddress', { addressId: 999_999 }, 'addressId', customer.token);
    expect(gone.userErrors[0].code).toBe('NOT_FOUND');
  });
});
