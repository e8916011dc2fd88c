import pg from 'pg';
import { startTestApp, type TestApp } from './support/harness.js';
import { newAdmin, newCategory, newCustomer, newOperator, newShop, type TestUser } from './support/fixtures.js';
import { mutate } from './support/graphql.js';
import { waitFor } from './support/subscriptions.js';

/**
 * Shop onboarding (issue 41, item 1): a customer applies, a platform admin approves (shop, profile
 * and operator in one transaction) or rejects with a reason the applicant reads, the applicant may
 * withdraw while submitted. Both doors, bad input, and the races of a decision.
 */
let t: TestApp;
let admin: TestUser;
let otherAdmin: TestUser;
let categories: number[];
beforeAll(async () => {
  t = await startTestApp();
  admin = await newAdmin(t);
  otherAdmin = await newAdmin(t);
  const top = await newCategory(t);
  categories = [top.id, (await newCategory(t, top)).id];
});
afterAll(() => t.close());

let seq = 0;
const freshSlug = () => `new-shop-${process.pid}-${++seq}-${Math.random().toString(36).slice(2, 8)}`;

const application = (overrides: Record<string, unknown> = {}) => ({
  legal_name: 'Harbor Trading Co., Ltd.',
  shop_name: 'Harbor Goods',
  slug: freshSlug(),
  contact_name: 'Li Wei',
  contact_phone: '+86 138 0000 0000',
  contact_email: 'li.wei@example.test',
  category_ids: categories,
  terms_accepted: true,
  ...overrides,
});

const apply = (token: string | undefined, body: unknown) => t.api('POST', '/api/me/shop-applications', { token, body });
async function applyOk(user: TestUser, overrides: Record<string, unknown> = {}) {
  const res = await apply(user.token, application(overrides));
  if (res.status !== 201) throw new Error(`apply failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}
const approve = (token: string, id: number) => t.api('POST', `/api/admin/shop-applications/${id}/approve`, { token });
const reject = (token: string, id: number, reason = 'The business licence does not match the legal name') =>
  t.api('POST', `/api/admin/shop-applications/${id}/reject`, { token, body: { reason } });
const withdraw = (token: string, id: number) => t.api('POST', `/api/me/shop-applications/${id}/withdraw`, { token });

/** Everything an application's decision could have changed, to show a refused call changed nothing. */
async function worldOf(user: TestUser, slug: string) {
  const [row] = await t.sql(
    `select (select count(*)::int from shop_application) as applications,
            (select count(*)::int from shop where slug = ?) as shops,
            (select count(*)::int from shop) as all_shops,
            (select role from app_user where id = ?) as role,
            (select m.shop_id from shop_membership m where m.user_id = ? and m.role = 'owner' order by m.id limit 1) as shop_id,
            (select json_agg(json_build_object('id', id, 'status', status) order by id) from shop_application) as states`,
    [slug, user.id, user.id],
  );
  return row;
}

describe('applying', () => {
  it('a customer applies: the application is submitted, with the terms accepted now and the categories kept', async () => {
    const customer = await newCustomer(t);
    const body = application({ slug: `  ${freshSlug().toUpperCase()}  `, logo_url: 'https://img.test/logo.png', description: 'Tools for the harbour' });
    const res = await apply(customer.token, body);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      applicant_id: customer.id, applicant_name: 'Test User', applicant_email: customer.email, status: 'submitted', legal_name: 'Harbor Trading Co., Ltd.', shop_name: 'Harbor Goods',
      slug: (body.slug as string).trim().toLowerCase(), contact_email: 'li.wei@example.test', category_ids: categories,
      logo_url: 'https://img.test/logo.png', description: 'Tools for the harbour',
    });
    expect(res.body).not.toHaveProperty('reject_reason');
    expect(res.body).not.toHaveProperty('shop_id');
    expect(Date.parse(res.body.terms_accepted_at)).toBeGreaterThan(Date.now() - 60_000);
  });

  it('refuses a second open application of the same customer with SHOP_APPLICATION_OPEN, and changes nothing', async () => {
    const customer = await newCustomer(t);
    const first = await applyOk(customer);
    const slug = freshSlug();
    const before = await worldOf(customer, slug);
    const res = await apply(customer.token, application({ slug }));
    expect(res.status).toBe(409);
    expect(res.body.error).toMatchObject({ code: 'SHOP_APPLICATION_OPEN', details: { application_id: first.id } });
    expect(await worldOf(customer, slug)).toEqual(before);
  });

  it('refuses a slug a shop holds or an open application asks for with SHOP_SLUG_TAKEN; a withdrawn one frees it', async () => {
    const shop = await newShop(t);
    const customer = await newCustomer(t);
    const byShop = await apply(customer.token, application({ slug: shop.slug }));
    expect(byShop.status).toBe(409);
    expect(byShop.body.error).toMatchObject({ code: 'SHOP_SLUG_TAKEN', details: { slug: shop.slug, shop_id: shop.id } });

    const holder = await newCustomer(t);
    const held = await applyOk(holder);
    const byApplication = await apply(customer.token, application({ slug: held.slug }));
    expect(byApplication.status).toBe(409);
    expect(byApplication.body.error).toMatchObject({ code: 'SHOP_SLUG_TAKEN', details: { slug: held.slug } });

    expect((await withdraw(holder.token, held.id)).status).toBe(200);
    expect((await apply(customer.token, application({ slug: held.slug }))).status).toBe(201);
  });

  it('two customers racing for one slug: exactly one application holds it', async () => {
    const [a, b] = [await newCustomer(t), await newCustomer(t)];
    const slug = freshSlug();
    const answers = await Promise.all([apply(a.token, application({ slug })), apply(b.token, application({ slug }))]);
    expect(answers.map((r) => r.status).sort()).toEqual([201, 409]);
    expect(answers.find((r) => r.status === 409)!.body.error.code).toBe('SHOP_SLUG_TAKEN');
    const [{ n }] = await t.sql(`select count(*)::int as n from shop_application where slug = ?`, [slug]);
    expect(n).toBe(1);
  });

  it('refuses an unknown category with CATEGORY_UNKNOWN (422), naming it', async () => {
    const customer = await newCustomer(t);
    const res = await apply(customer.token, application({ category_ids: [categories[0], 2_000_000_000] }));
    expect(res.status).toBe(422);
    expect(res.body.error).toMatchObject({ code: 'CATEGORY_UNKNOWN', details: { category_id: 2_000_000_000 } });
    const [{ n }] = await t.sql(`select count(*)::int as n from shop_application where applicant_id = ?`, [customer.id]);
    expect(n).toBe(0);
  });

  it('answers bad input with VALIDATION_FAILED in the common shape, never a 500, and stores nothing', async () => {
    const customer = await newCustomer(t);
    const slug = freshSlug();
    const before = await worldOf(customer, slug);
    const bad: [string, unknown][] = [
      ['terms not accepted', application({ slug, terms_accepted: false })],
      ['terms missing', { ...application({ slug }), terms_accepted: undefined }],
      ['terms as text', application({ slug, terms_accepted: 'true' })],
      ['slug with spaces', application({ slug: 'my shop' })],
      ['slug too short', application({ slug: 'ab' })],
      ['slug with a double hyphen', application({ slug: 'a--b' })],
      ['slug too long', application({ slug: 'a'.repeat(81) })],
      ['blank legal name', application({ slug, legal_name: '   ' })],
      ['legal name too long', application({ slug, legal_name: 'x'.repeat(201) })],
      ['not an email', application({ slug, contact_email: 'nobody' })],
      ['not a phone', application({ slug, contact_phone: 'call me' })],
      ['no categories', application({ slug, category_ids: [] })],
      ['category not an id', application({ slug, category_ids: ['x'] })],
      ['negative category', application({ slug, category_ids: [-1] })],
      ['too many categories', application({ slug, category_ids: Array.from({ length: 21 }, (_, i) => i + 1) })],
      ['logo not a URL', application({ slug, logo_url: 'javascript:alert(1)' })],
      ['unknown field', application({ slug, shop_id: 1 })],
      ['an array', [application({ slug })]],
    ];
    for (const [what, body] of bad) {
      const res = await apply(customer.token, body);
      expect([what, res.status]).toEqual([what, 400]);
      expect([what, res.body.error?.code]).toEqual([what, 'VALIDATION_FAILED']);
      expect(typeof res.body.error.message).toBe('string');
    }
    // JSON that is not an object or array is the body parser's refusal, in the same shape.
    for (const raw of ['"hello"', 'null']) {
      const res = await t.api('POST', '/api/me/shop-applications', { token: customer.token, raw, headers: { 'content-type': 'application/json' } });
      expect([raw, res.status, res.body.error?.code]).toEqual([raw, 400, 'MALFORMED_JSON']);
      expect(typeof res.body.error.message).toBe('string');
    }
    const raw = await t.api('POST', '/api/me/shop-applications', { token: customer.token, raw: '{"legal_name": ', headers: { 'content-type': 'application/json' } });
    expect(raw.status).toBe(400);
    expect(raw.body.error.code).toBe('MALFORMED_JSON');
    for (const path of ['/api/admin/shop-applications/abc/approve', '/api/admin/shop-applications/0/approve', '/api/admin/shop-applications/99999999999/reject']) {
      const res = await t.api('POST', path, { token: admin.token, body: { reason: 'x' } });
      expect([path, res.status, res.body.error?.code]).toEqual([path, 400, 'VALIDATION_FAILED']);
    }
    const listing = await t.api('GET', '/api/admin/shop-applications?status=pending', { token: admin.token });
    expect([listing.status, listing.body.error.code]).toEqual([400, 'VALIDATION_FAILED']);
    expect(await worldOf(customer, slug)).toEqual(before);
  });

  it('lets only signed-in callers in: anonymous 401; an operator or an admin may not apply (403)', async () => {
    expect((await apply(undefined, application())).status).toBe(401);
    expect((await t.api('GET', '/api/me/shop-applications')).status).toBe(401);
    const operator = await newOperator(t, (await newShop(t)).id);
    expect((await apply(operator.token, application())).body.error.code).toBe('FORBIDDEN');
    expect((await apply(admin.token, application())).body.error.code).toBe('FORBIDDEN');
  });
});

describe('reading', () => {
  it('the applicant reads their own applications; another customer gets 404 and an empty list; only an admin reads all', async () => {
    const applicant = await newCustomer(t);
    const stranger = await newCustomer(t);
    const mine = await applyOk(applicant);
    const own = await t.api('GET', `/api/me/shop-applications/${mine.id}`, { token: applicant.token });
    expect(own.status).toBe(200);
    expect(own.body).toEqual(mine);
    const list = await t.api('GET', '/api/me/shop-applications', { token: applicant.token });
    expect(list.body).toMatchObject({ total: 1, page: 1, page_size: 20, items: [mine] });

    const theirs = await t.api('GET', `/api/me/shop-applications/${mine.id}`, { token: stranger.token });
    expect([theirs.status, theirs.body.error.code]).toEqual([404, 'NOT_FOUND']);
    expect((await t.api('GET', '/api/me/shop-applications', { token: stranger.token })).body.total).toBe(0);
    expect((await withdraw(stranger.token, mine.id)).status).toBe(404);

    expect((await t.api('GET', '/api/admin/shop-applications', { token: applicant.token })).status).toBe(403);
    expect((await t.api('GET', `/api/admin/shop-applications/${mine.id}`, { token: applicant.token })).status).toBe(403);
    expect((await t.api('GET', `/api/admin/shop-applications/${mine.id}`, { token: admin.token })).body).toEqual(mine);
  });

  it('the admin lists applications newest first, paged and filtered by status', async () => {
    const a = await applyOk(await newCustomer(t));
    const bUser = await newCustomer(t);
    const b = await applyOk(bUser);
    await withdraw(bUser.token, b.id);
    const submitted = await t.api('GET', '/api/admin/shop-applications?status=submitted&page_size=100', { token: admin.token });
    expect(submitted.status).toBe(200);
    expect(submitted.body.items.every((i: any) => i.status === 'submitted')).toBe(true);
    expect(submitted.body.items.map((i: any) => i.id)).toContain(a.id);
    expect(submitted.body.items.map((i: any) => i.id)).not.toContain(b.id);
    const withdrawn = await t.api('GET', '/api/admin/shop-applications?status=withdrawn&page_size=100', { token: admin.token });
    expect(withdrawn.body.items.map((i: any) => i.id)).toContain(b.id);
    const [{ n }] = await t.sql(`select count(*)::int as n from shop_application`);
    const page = await t.api('GET', '/api/admin/shop-applications?page=1&page_size=2', { token: admin.token });
    expect(page.body.total).toBe(n);
    expect(page.body.items).toHaveLength(2);
    expect(page.body.items[0].id).toBeGreaterThan(page.body.items[1].id);
  });

  it("the admin finds applications by the shop's or legal name, the address, the contact's or the applicant's email, over both doors; the applicant's own list takes no words", async () => {
    const word = `zq${Date.now().toString(36)}`;
    const applicant = await newCustomer(t);
    const a = await applyOk(applicant, { shop_name: `Harbor ${word} Goods`, contact_email: `ops@${word}-b.example.test` });
    const b = await applyOk(await newCustomer(t), { legal_name: `${word.toUpperCase()} Holdings`, contact_email: 'other@example.test' });
    const ids = async (query: string) => {
      const res = await t.api('GET', `/api/admin/shop-applications?${query}&page_size=100`, { token: admin.token });
      expect(res.status).toBe(200);
      return res.body.items.map((i: { id: number }) => i.id);
    };
    // A word in the shop's name and in a legal name, in another case: both, newest first.
    expect(await ids(`q=${word}`)).toEqual([b.id, a.id]);
    expect(await ids(`q=${encodeURIComponent(`${word}-b.example`)}`)).toEqual([a.id]);
    expect(await ids(`q=${encodeURIComponent(a.slug)}`)).toEqual([a.id]);
    expect(await ids(`q=${encodeURIComponent(applicant.email)}`)).toEqual([a.id]);
    expect(await ids(`q=${word}&status=withdrawn`)).toEqual([]);
    // A _ is a character searched for, not a wildcard.
    expect(await ids(`q=${word.slice(0, -1)}_`)).toEqual([]);
    const gql = await t.gql('query($q: String) { shopApplications(q: $q, status: SUBMITTED) { total items { id } } }', { q: `HARBOR ${word}` }, admin.token);
    expect(gql.data.shopApplications).toEqual({ total: 1, items: [{ id: a.id }] });
    const tooLong = await t.api('GET', `/api/admin/shop-applications?q=${'x'.repeat(201)}`, { token: admin.token });
    expect([tooLong.status, tooLong.body.error.code]).toEqual([400, 'VALIDATION_FAILED']);
    expect((await t.gql('query { myShopApplications(q: "x") { total } }', undefined, applicant.token)).errors?.[0]?.message).toMatch(/Unknown argument "q"/);
  });
});

describe('deciding', () => {
  it('approval creates the shop with its profile and makes the applicant its operator, in one go; the same token acts for the shop', async () => {
    const applicant = await newCustomer(t);
    const mine = await applyOk(applicant, { logo_url: 'https://img.test/harbor.png', description: 'Harbour tools' });
    const res = await approve(admin.token, mine.id);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: mine.id, status: 'approved' });
    expect(res.body.shop_id).toBeGreaterThan(0);
    expect(Date.parse(res.body.decided_at)).toBeGreaterThan(0);

    const shop = await t.api('GET', `/api/shops/${mine.slug}`);
    expect(shop.status).toBe(200);
    expect(shop.body).toMatchObject({ id: res.body.shop_id, slug: mine.slug, name: 'Harbor Goods', profile: { logo_url: 'https://img.test/harbor.png', description: 'Harbour tools', contact_phone: '+86 138 0000 0000' } });
    const [user] = await t.sql(`select u.role, (select m.shop_id from shop_membership m where m.user_id = u.id and m.role = 'owner' order by m.id limit 1) as shop_id from app_user u where u.id = ?`, [applicant.id]);
    expect(user).toEqual({ role: 'shop_operator', shop_id: res.body.shop_id });
    const [decided] = await t.sql(`select decided_by_id from shop_application where id = ?`, [mine.id]);
    expect(decided.decided_by_id).toBe(admin.id);

    // The applicant's existing token now acts for the new shop, and still reads the application.
    const products = await t.api('GET', '/api/merchant/products', { token: applicant.token });
    expect(products.status).toBe(200);
    expect((await t.api('GET', `/api/me/shop-applications/${mine.id}`, { token: applicant.token })).body.status).toBe('approved');
  });

  it('approval without a logo creates the shop without a profile (a profile needs its logo)', async () => {
    const mine = await applyOk(await newCustomer(t));
    const res = await approve(admin.token, mine.id);
    expect(res.status).toBe(200);
    const shop = await t.api('GET', `/api/shops/${mine.slug}`);
    expect(shop.body).not.toHaveProperty('profile');
  });

  it('a decided application cannot be decided again: SHOP_APPLICATION_WRONG_STATE, nothing changes', async () => {
    const applicant = await newCustomer(t);
    const mine = await applyOk(applicant);
    expect((await approve(admin.token, mine.id)).status).toBe(200);
    const before = await worldOf(applicant, mine.slug);
    for (const again of [await approve(otherAdmin.token, mine.id), await reject(admin.token, mine.id)]) {
      expect(again.status).toBe(409);
      expect(again.body.error).toMatchObject({ code: 'SHOP_APPLICATION_WRONG_STATE', details: { application_id: mine.id, status: 'approved', expected: ['submitted'] } });
    }
    expect(await worldOf(applicant, mine.slug)).toEqual(before);

    const rejectedUser = await newCustomer(t);
    const other = await applyOk(rejectedUser);
    expect((await reject(admin.token, other.id)).status).toBe(200);
    const late = await approve(admin.token, other.id);
    expect([late.status, late.body.error.details.status]).toEqual([409, 'rejected']);
    expect((await withdraw(rejectedUser.token, other.id)).body.error.code).toBe('SHOP_APPLICATION_WRONG_STATE');
  });

  it('rejection keeps the reason, which the applicant reads; they may apply again, even for the same slug', async () => {
    const applicant = await newCustomer(t);
    const mine = await applyOk(applicant);
    const res = await reject(admin.token, mine.id, 'Upload a licence that shows the legal name');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'rejected', reject_reason: 'Upload a licence that shows the legal name' });
    expect(res.body).not.toHaveProperty('shop_id');
    const seen = await t.api('GET', `/api/me/shop-applications/${mine.id}`, { token: applicant.token });
    expect(seen.body.reject_reason).toBe('Upload a licence that shows the legal name');
    const [user] = await t.sql(`select u.role, (select m.shop_id from shop_membership m where m.user_id = u.id and m.role = 'owner' order by m.id limit 1) as shop_id from app_user u where u.id = ?`, [applicant.id]);
    expect(user).toEqual({ role: 'customer', shop_id: null });
    expect((await apply(applicant.token, application({ slug: mine.slug }))).status).toBe(201);
  });

  it('refuses a blank rejection reason and an unknown application without changing anything', async () => {
    const applicant = await newCustomer(t);
    const mine = await applyOk(applicant);
    const before = await worldOf(applicant, mine.slug);
    const blank = await reject(admin.token, mine.id, '   ');
    expect([blank.status, blank.body.error.code]).toEqual([400, 'VALIDATION_FAILED']);
    const missing = await t.api('POST', `/api/admin/shop-applications/${mine.id}/reject`, { token: admin.token, body: {} });
    expect([missing.status, missing.body.error.code]).toEqual([400, 'VALIDATION_FAILED']);
    expect((await approve(admin.token, 2_000_000_000)).status).toBe(404);
    expect(await worldOf(applicant, mine.slug)).toEqual(before);
  });

  it('refuses approval when the slug went to a shop meanwhile (SHOP_SLUG_TAKEN), creating nothing', async () => {
    const applicant = await newCustomer(t);
    const mine = await applyOk(applicant);
    // A shop made outside onboarding (the demo seed, SQL) took the slug after the application.
    await t.sql(`insert into shop (slug, name, created_at) values (?, 'Squatter', now())`, [mine.slug]);
    const before = await worldOf(applicant, mine.slug);
    const res = await approve(admin.token, mine.id);
    expect([res.status, res.body.error.code]).toEqual([409, 'SHOP_SLUG_TAKEN']);
    expect(await worldOf(applicant, mine.slug)).toEqual(before);
  });

  it('approval is one transaction: when the applicant cannot become the operator, no shop or profile is left behind', async () => {
    const applicant = await newCustomer(t);
    const mine = await applyOk(applicant, { logo_url: 'https://img.test/atomic.png' });
    // The applicant was made staff meanwhile (outside onboarding): the shop is written first, then refused.
    await t.sql(`update app_user set role = 'platform_admin', platform_role = 'admin' where id = ?`, [applicant.id]);
    const before = await worldOf(applicant, mine.slug);
    const [profiles] = await t.sql(`select count(*)::int as n from shop_profile`);
    const res = await approve(admin.token, mine.id);
    expect([res.status, res.body.error.code]).toEqual([409, 'SHOP_APPLICANT_NOT_CUSTOMER']);
    expect(await worldOf(applicant, mine.slug)).toEqual(before);
    expect(before).toMatchObject({ shops: 0, role: 'platform_admin', shop_id: null });
    expect((await t.sql(`select count(*)::int as n from shop_profile`))[0]).toEqual(profiles);
    const [row] = await t.sql(`select status, shop_id, decided_at from shop_application where id = ?`, [mine.id]);
    expect(row).toEqual({ status: 'submitted', shop_id: null, decided_at: null });
  });

  it('withdrawal: only the applicant, only while submitted', async () => {
    const applicant = await newCustomer(t);
    const mine = await applyOk(applicant);
    const res = await withdraw(applicant.token, mine.id);
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('withdrawn');
    expect(Date.parse(res.body.withdrawn_at)).toBeGreaterThan(0);
    const again = await withdraw(applicant.token, mine.id);
    expect([again.status, again.body.error.code]).toEqual([409, 'SHOP_APPLICATION_WRONG_STATE']);
    expect((await approve(admin.token, mine.id)).status).toBe(409);
  });
});

describe('races', () => {
  /**
   * Holds the application's row in a transaction of its own while `calls` start one after the other,
   * each waiting on it before the next starts, then lets them go together: they overlap for certain,
   * and PostgreSQL grants the row in the order they queued, so the test knows who comes first.
   */
  async function together<T>(applicationId: number, calls: (() => Promise<T>)[]): Promise<T[]> {
    const blocker = new pg.Client({ connectionString: t.dbUrl });
    await blocker.connect();
    try {
      await blocker.query('begin');
      await blocker.query('select id from shop_application where id = $1 for update', [applicationId]);
      const blockerPid = (await blocker.query('select pg_backend_pid() as pid')).rows[0].pid;
      const running: Promise<T>[] = [];
      for (const call of calls) {
        running.push(call());
        await waitFor(async () => {
          const [{ n }] = await t.sql(
            `select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock' and query ilike '%shop_application%' and pid <> ?`,
            [blockerPid],
          );
          return n >= running.length;
        }, 10_000, `racing call ${running.length} waiting on the application`);
      }
      await blocker.query('rollback');
      return await Promise.all(running);
    } finally {
      await blocker.end();
    }
  }

  it('two admins approving one application at once: exactly one shop, the other answers 409', async () => {
    for (let round = 0; round < 3; round++) {
      const applicant = await newCustomer(t);
      const mine = await applyOk(applicant);
      const answers = await together(mine.id, [() => approve(admin.token, mine.id), () => approve(otherAdmin.token, mine.id)]);
      expect(answers.map((r) => r.status).sort()).toEqual([200, 409]);
      const lost = answers.find((r) => r.status === 409)!;
      expect(lost.body.error).toMatchObject({ code: 'SHOP_APPLICATION_WRONG_STATE', details: { status: 'approved' } });
      const won = answers.find((r) => r.status === 200)!;
      const shops = await t.sql(`select id from shop where slug = ?`, [mine.slug]);
      expect(shops).toEqual([{ id: won.body.shop_id }]);
      const [user] = await t.sql(`select u.role, (select m.shop_id from shop_membership m where m.user_id = u.id and m.role = 'owner' order by m.id limit 1) as shop_id from app_user u where u.id = ?`, [applicant.id]);
      expect(user).toEqual({ role: 'shop_operator', shop_id: won.body.shop_id });
    }
  });

  it('approval racing the applicant\u2019s withdrawal: exactly one outcome, and the world matches it', async () => {
    const outcomes: string[] = [];
    for (let round = 0; round < 4; round++) {
      const applicant = await newCustomer(t);
      const mine = await applyOk(applicant);
      // Alternate who queues first on the row: the first in the queue wins, so both outcomes are exercised.
      const calls = [() => approve(admin.token, mine.id), () => withdraw(applicant.token, mine.id)];
      const answers = await together(mine.id, round % 2 === 0 ? calls : [...calls].reverse());
      expect(answers.map((r) => r.status).sort()).toEqual([200, 409]);
      const won = answers.find((r) => r.status === 200)!.body;
      const lost = answers.find((r) => r.status === 409)!.body;
      expect(lost.error.code).toBe('SHOP_APPLICATION_WRONG_STATE');
      expect(lost.error.details.status).toBe(won.status);
      outcomes.push(won.status);
      const [row] = await t.sql(`select status, shop_id from shop_application where id = ?`, [mine.id]);
      const shops = await t.sql(`select id from shop where slug = ?`, [mine.slug]);
      const [user] = await t.sql(`select u.role, (select m.shop_id from shop_membership m where m.user_id = u.id and m.role = 'owner' order by m.id limit 1) as shop_id from app_user u where u.id = ?`, [applicant.id]);
      if (won.status === 'approved') {
        expect(row).toEqual({ status: 'approved', shop_id: won.shop_id });
        expect(shops).toEqual([{ id: won.shop_id }]);
        expect(user).toEqual({ role: 'shop_operator', shop_id: won.shop_id });
      } else {
        expect(won.status).toBe('withdrawn');
        expect(row).toEqual({ status: 'withdrawn', shop_id: null });
        expect(shops).toEqual([]);
        expect(user).toEqual({ role: 'customer', shop_id: null });
      }
    }
    expect(outcomes).toEqual(['approved', 'withdrawn', 'approved', 'withdrawn']);
  });
});

describe('over GraphQL', () => {
  const SELECTION = 'application { id status slug shopId rejectReason categoryIds applicantName applicantEmail }';
  const input = (overrides: Record<string, unknown> = {}) => ({
    legalName: 'Lake Foods Ltd.', shopName: 'Lake Foods', slug: freshSlug(), contactName: 'Wang Fang', contactPhone: '021-5555-0100',
    contactEmail: 'fang@example.test', categoryIds: categories, termsAccepted: true, ...overrides,
  });

  it('applies, rejects with a reason the applicant reads, and approves, through the same use cases', async () => {
    const applicant = await newCustomer(t);
    const applied = await mutate(t, 'applyForShop', input(), SELECTION, applicant.token);
    expect(applied.userErrors).toEqual([]);
    expect(applied.payload.application).toMatchObject({ status: 'SUBMITTED', categoryIds: categories, applicantName: 'Test User', applicantEmail: applicant.email });
    const id = applied.payload.application.id;

    const rejected = await mutate(t, 'rejectShopApplication', { applicationId: id, reason: 'Wrong licence' }, SELECTION, admin.token);
    expect(rejected.payload.application).toMatchObject({ status: 'REJECTED', rejectReason: 'Wrong licence' });
    const mine = await t.gql(`query($id: Int!) { myShopApplication(id: $id) { status rejectReason } myShopApplications { total items { id } } }`, { id }, applicant.token);
    expect(mine.data.myShopApplication).toEqual({ status: 'REJECTED', rejectReason: 'Wrong licence' });
    expect(mine.data.myShopApplications).toEqual({ total: 1, items: [{ id }] });
    const stranger = await newCustomer(t);
    const hidden = await t.gql(`query($id: Int!) { myShopApplication(id: $id) { id } }`, { id }, stranger.token);
    expect(hidden.data.myShopApplication).toBeNull();
    expect(hidden.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');

    const again = await mutate(t, 'applyForShop', input(), SELECTION, applicant.token);
    const approved = await mutate(t, 'approveShopApplication', { applicationId: again.payload.application.id }, SELECTION, admin.token);
    expect(approved.payload.application.status).toBe('APPROVED');
    const twice = await mutate(t, 'approveShopApplication', { applicationId: again.payload.application.id }, SELECTION, otherAdmin.token);
    expect(twice.payload.application).toBeNull();
    expect(twice.userErrors).toMatchObject([{ code: 'SHOP_APPLICATION_WRONG_STATE', details: { status: 'APPROVED', applicationId: again.payload.application.id } }]);

    const listed = await t.gql(`{ shopApplications(status: APPROVED, pageSize: 100) { items { id status } } }`, undefined, admin.token);
    expect(listed.data.shopApplications.items).toContainEqual({ id: again.payload.application.id, status: 'APPROVED' });
  });

  it('answers refusals as typed user errors and access as top-level errors', async () => {
    const applicant = await newCustomer(t);
    const terms = await mutate(t, 'applyForShop', input({ termsAccepted: false }), SELECTION, applicant.token);
    expect(terms.userErrors).toMatchObject([{ code: 'VALIDATION_FAILED', field: ['input', 'termsAccepted'] }]);
    const unknown = await mutate(t, 'applyForShop', input({ categoryIds: [2_000_000_000] }), SELECTION, applicant.token);
    expect(unknown.userErrors).toMatchObject([{ code: 'CATEGORY_UNKNOWN', details: { categoryId: 2_000_000_000 } }]);
    const shop = await newShop(t);
    const taken = await mutate(t, 'applyForShop', input({ slug: shop.slug }), SELECTION, applicant.token);
    expect(taken.userErrors).toMatchObject([{ code: 'SHOP_SLUG_TAKEN' }]);
    const [{ n }] = await t.sql(`select count(*)::int as n from shop_application where applicant_id = ?`, [applicant.id]);
    expect(n).toBe(0);

    const open = await mutate(t, 'applyForShop', input(), SELECTION, applicant.token);
    const blank = await mutate(t, 'rejectShopApplication', { applicationId: open.payload.application.id, reason: ' ' }, SELECTION, admin.token);
    expect(blank.userErrors).toMatchObject([{ code: 'VALIDATION_FAILED', field: ['input', 'reason'] }]);
    const badId = await mutate(t, 'approveShopApplication', { applicationId: 0 }, SELECTION, admin.token);
    expect(badId.userErrors).toMatchObject([{ code: 'VALIDATION_FAILED' }]);
    const [still] = await t.sql(`select status from shop_application where id = ?`, [open.payload.application.id]);
    expect(still.status).toBe('submitted');
    const notMine = await mutate(t, 'withdrawShopApplication', { applicationId: open.payload.application.id }, SELECTION, (await newCustomer(t)).token);
    expect(notMine.userErrors).toMatchObject([{ code: 'NOT_FOUND' }]);

    const anonymous = await mutate(t, 'applyForShop', input(), SELECTION);
    expect(anonymous.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
    const notAdmin = await t.gql(`{ shopApplications { total } }`, undefined, applicant.token);
    expect(notAdmin.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
  });
});
