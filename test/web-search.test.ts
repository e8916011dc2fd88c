import { vi } from 'vitest';
import type { Browser, Page, Request } from 'playwright-core';
import { startTestApp, type TestApp } from './support/harness.js';
import { newCategory, newProduct, newShop } from './support/fixtures.js';
import { BROWSER_TEST_TIMEOUT_MS, launchBrowser, MOBILE, storePages } from './support/browser.js';

vi.setConfig({ testTimeout: BROWSER_TEST_TIMEOUT_MS, hookTimeout: BROWSER_TEST_TIMEOUT_MS });

/**
 * Search in the storefront, in Chromium against a real server and PostgreSQL (issue 22, "search with
 * facets and suggestions"): the header's combobox with suggestions (keys, mouse, stale answers),
 * the search page's results and facets from one GraphQL request, choosing and clearing facets in
 * the URL, sort, the empty and hostile-keyword states, screenshots at both widths, no console errors.
 */
let t: TestApp;
let browser: Browser;
const pages = storePages(() => ({ browser, t }));
const open = pages.open;

const data = {} as {
  brands: Record<'glowmaster' | 'brightway' | 'lumora' | 'lanternworks', number>;
  categories: Record<'outdoor' | 'lighting' | 'lanterns' | 'kitchen' | 'cookware', number>;
  products: Record<string, number>;
};

async function brand(name: string): Promise<number> {
  const [row] = await t.sql<{ id: number }>(`insert into brand (name, position) values (?, (select coalesce(max(position), 0) + 1 from brand)) returning id`, [name]);
  return row.id;
}

async function category(name: string, parent?: { id: number; path: string; depth: number }) {
  const c = await newCategory(t, parent);
  await t.sql('update category set name = ? where id = ?', [name, c.id]);
  return c;
}

beforeAll(async () => {
  [t, browser] = await Promise.all([startTestApp(), launchBrowser()]);
  data.brands = { glowmaster: await brand('Glowmaster'), brightway: await brand('Brightway'), lumora: await brand('Lumora'), lanternworks: await brand('Lanternworks') };
  const outdoor = await category('Outdoor');
  const lighting = await category('Lighting', outdoor);
  const lanterns = await category('Lanterns', lighting);
  const kitchen = await category('Kitchen');
  const cookware = await category('Cookware', kitchen);
  data.categories = { outdoor: outdoor.id, lighting: lighting.id, lanterns: lanterns.id, kitchen: kitchen.id, cookware: cookware.id };
  const lumen = await newShop(t, { name: 'Lumen Works' });
  const camp = await newShop(t, { name: 'Camp Supply' });
  const b = data.brands;
  // Seven products match "lantern": six by name, the trimmer by its category "Lanterns".
  const specs = [
    ['Lantern Classic', b.glowmaster, lumen.id, lanterns.id, 5000],
    ['Lantern Mini', b.glowmaster, camp.id, lanterns.id, 2500],
    ['Lantern Pro', b.brightway, lumen.id, lighting.id, 12000],
    ['Lantern Solar', b.brightway, camp.id, lanterns.id, 8000],
    ['Lantern Hook', null, lumen.id, outdoor.id, 900],
    ['Lantern Glass Kit', b.lumora, camp.id, cookware.id, 3000],
    ['Wick Trimmer', b.lumora, lumen.id, lanterns.id, 1500],
    ['Camp Mug', b.glowmaster, camp.id, cookware.id, 1200],
    ['太阳能灯笼', null, camp.id, outdoor.id, 4200],
  ] as const;
  data.products = {};
  for (const [name, brandId, shopId, categoryId, price] of specs) {
    data.products[name] = (await newProduct(t, { name, brandId, shopId, categoryId, skus: [{ price, stock: 10 }] })).id;
  }
  // Never suggested nor found: not published.
  await newProduct(t, { name: 'Lantern Prototype', brandId: b.glowmaster, shopId: lumen.id, categoryId: lanterns.id, status: 'draft' });
});

afterAll(async () => {
  await pages.close();
  await t?.close();
});


const operation = (req: Request) => (JSON.parse(req.postData() ?? '{}') as { operationName?: string; query?: string; variables?: Record<string, unknown> });
const isGraphql = (req: Request) => new URL(req.url()).pathname === '/graphql' && req.method() === 'POST';
const isSuggest = (req: Request) => isGraphql(req) && operation(req).query?.includes('searchSuggestions') === true;

/** The text of each option of the open listbox, e.g. `Lanterns Category`. */
const optionTexts = (page: Page) => page.getByRole('listbox', { name: 'Suggestions' }).getByRole('option').allInnerTexts();
const count = (page: Page) => page.locator('.result-count');
/** Waits for the result count (the last results stay on screen while the next ones load). */
const showsCount = (page: Page, text: string) => page.locator('.search-results[aria-busy="false"] .result-count', { hasText: new RegExp(`^${text}$`) }).waitFor();
const sort = (page: Page) => page.locator('select[name="sort"]');

describe('search in the storefront', () => {
  it('suggests brands, categories and products as the shopper types, by keys and by mouse', async () => {
    const { store, page } = await open();
    const suggestRequests: string[] = [];
    page.on('request', (req) => {
      if (isSuggest(req)) suggestRequests.push(String(operation(req).variables?.q));
    });
    await page.goto('/');
    const box = page.getByRole('combobox', { name: 'Search products' });
    await box.pressSequentially('lan', { delay: 40 });
    const listbox = page.getByRole('listbox', { name: 'Suggestions' });
    await listbox.waitFor();
    await expect(box.getAttribute('aria-expanded')).resolves.toBe('true');
    // Brands, then categories, then products, each alphabetical; the draft is not there; at most 8.
    expect((await optionTexts(page)).map((s) => s.replace(/\s+/g, ' '))).toEqual([
      'Lanternworks Brand',
      'Lanterns Category',
      'Lantern Classic Product',
      'Lantern Glass Kit Product',
      'Lantern Hook Product',
      'Lantern Mini Product',
      'Lantern Pro Product',
      'Lantern Solar Product',
    ]);
    // One letter asks nothing; the debounce asks at most once more than the final prefix.
    expect(suggestRequests.at(-1)).toBe('lan');
    expect(suggestRequests.length).toBeLessThanOrEqual(2);
    await store.screenshot(page, 'search-suggestions-desktop');

    // Down three times: the third option, announced through aria-activedescendant; Enter goes there.
    for (let i = 0; i < 3; i++) await box.press('ArrowDown');
    const activeId = await box.getAttribute('aria-activedescendant');
    expect(activeId).toBeTruthy();
    await expect(page.locator(`[id="${activeId}"]`).getAttribute('aria-selected')).resolves.toBe('true');
    await expect(page.locator(`[id="${activeId}"]`).innerText()).resolves.toContain('Lantern Classic');
    // Up and Down move back and forth.
    await box.press('ArrowUp');
    await box.press('ArrowDown');
    await box.press('Enter');
    await page.waitForURL((url) => url.pathname === `/products/${data.products['Lantern Classic']}`);
    await page.getByRole('heading', { name: 'Lantern Classic' }).waitFor();
    await expect(box.inputValue()).resolves.toBe('');

    // Escape closes the list and leaves the text.
    await box.pressSequentially('bri', { delay: 40 });
    await page.getByRole('option', { name: /Brightway/ }).waitFor();
    await box.press('Escape');
    await listbox.waitFor({ state: 'hidden' });
    await expect(box.getAttribute('aria-expanded')).resolves.toBe('false');
    await expect(box.inputValue()).resolves.toBe('bri');
    // Down opens it again; a click on an option goes where it leads.
    await box.press('ArrowDown');
    await page.getByRole('option', { name: /Brightway/ }).click();
    await page.waitForURL((url) => url.pathname === `/brands/${data.brands.brightway}`);
    await page.getByRole('heading', { name: 'Brightway' }).waitFor();

    // A CJK character is a word of its own: one is enough to ask. Punctuation asks nothing.
    await box.fill('太');
    await page.getByRole('option', { name: /太阳能灯笼/ }).waitFor();
    const before = suggestRequests.length;
    await box.fill('!!');
    await listbox.waitFor({ state: 'hidden' });
    await page.waitForTimeout(400);
    expect(suggestRequests.length).toBe(before);
    expect(store.problems).toEqual([]);
  });

  it('never lets an older, slower answer replace the suggestions for newer text', async () => {
    const { store, page } = await open();
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let delivered!: () => void;
    const heldDone = new Promise<void>((resolve) => (delivered = resolve));
    await page.route('**/graphql', async (route) => {
      const req = route.request();
      if (!isSuggest(req) || operation(req).variables?.q !== 'lantern') return route.continue();
      // The answer for "lantern" is held back until the one for "lantern p" has been shown. (The
      // box may have given up on it already: then there is no one left to deliver it to.)
      const response = await route.fetch();
      await released;
      await route.fulfill({ response }).catch(() => undefined);
      delivered();
    });
    await page.goto('/');
    const box = page.getByRole('combobox', { name: 'Search products' });
    const held = page.waitForRequest((req) => isSuggest(req) && operation(req).variables?.q === 'lantern');
    await box.fill('lantern');
    await held;
    await box.pressSequentially(' p', { delay: 20 });
    await page.getByRole('option', { name: /Lantern Pro/ }).waitFor();
    expect(await optionTexts(page)).toHaveLength(1);
    release();
    await heldDone;
    await page.waitForTimeout(300);
    expect((await optionTexts(page)).map((s) => s.replace(/\s+/g, ' '))).toEqual(['Lantern Pro Product']);
    await page.unrouteAll({ behavior: 'ignoreErrors' });
    expect(store.problems).toEqual([]);
  });

  it('shows results and facets from one request, narrows by brand and price, and clears them', async () => {
    const { store, page } = await open();
    const searchRequests: string[] = [];
    page.on('request', (req) => {
      if (isGraphql(req) && !isSuggest(req)) searchRequests.push(operation(req).query ?? '');
    });
    await page.goto('/');
    await page.getByRole('heading', { name: 'Best sellers' }).waitFor();
    searchRequests.length = 0;

    const box = page.getByRole('combobox', { name: 'Search products' });
    await box.fill('lantern');
    await box.press('Enter');
    await page.waitForURL((url) => url.pathname === '/search' && url.searchParams.get('q') === 'lantern');
    await page.getByRole('heading', { name: 'Results for “lantern”' }).waitFor();
    await showsCount(page, '7 products');
    await page.waitForLoadState('networkidle');
    // Results and facets came in one request.
    expect(searchRequests).toHaveLength(1);
    expect(searchRequests[0]).toContain('productFacets');
    expect(searchRequests[0]).toMatch(/\bproducts\(/);
    await expect(box.inputValue()).resolves.toBe('lantern');
    await expect(sort(page).locator('option:checked').innerText()).resolves.toBe('Most relevant');

    const facet = (name: string) => page.getByRole('region', { name });
    // Categories rolled up the tree: the top level first.
    await facet('Category').getByRole('link', { name: 'Outdoor (6)' }).waitFor();
    await facet('Category').getByRole('link', { name: 'Kitchen (1)' }).waitFor();
    for (const name of ['Glowmaster (2)', 'Brightway (2)', 'Lumora (2)']) await facet('Brand').getByRole('link', { name }).waitFor();
    await facet('Shop').getByRole('link', { name: 'Lumen Works (4)' }).waitFor();
    await facet('Shop').getByRole('link', { name: 'Camp Supply (3)' }).waitFor();
    const buckets = await facet('Price').getByRole('link').allInnerTexts();
    expect(buckets.length).toBeGreaterThan(1);
    expect(buckets.reduce((sum, label) => sum + Number(/\((\d+)\)$/.exec(label)?.[1]), 0)).toBe(7);
    await store.screenshot(page, 'search-facets-desktop');

    // A brand: the URL has it, the results narrow, the other brands stay to switch to.
    await facet('Brand').getByRole('link', { name: 'Glowmaster (2)' }).click();
    await page.waitForURL((url) => url.searchParams.get('brand') === String(data.brands.glowmaster));
    await showsCount(page, '2 products');
    await facet('Brand').locator('[aria-current="true"]', { hasText: 'Glowmaster' }).waitFor();
    await facet('Brand').getByRole('link', { name: 'Brightway (2)' }).waitFor();
    await facet('Shop').getByRole('link', { name: 'Lumen Works (1)' }).waitFor();
    expect(await page.locator('.product-card h3').allInnerTexts()).toEqual(expect.arrayContaining(['Lantern Classic', 'Lantern Mini']));

    // A price bucket narrows to exactly its count; clearing it widens again.
    const bucket = facet('Price').getByRole('link').first();
    const bucketCount = Number(/\((\d+)\)$/.exec(await bucket.innerText())?.[1]);
    await bucket.click();
    await page.waitForURL((url) => url.searchParams.has('price_min'));
    expect(new URL(page.url()).searchParams.get('brand')).toBe(String(data.brands.glowmaster));
    await showsCount(page, `${bucketCount} ${bucketCount === 1 ? 'product' : 'products'}`);
    await page.getByRole('list', { name: 'Chosen filters' }).getByRole('link', { name: /^Remove Price/ }).waitFor();
    await facet('Price').getByRole('link', { name: 'Clear price' }).click();
    await page.waitForURL((url) => !url.searchParams.has('price_min') && !url.searchParams.has('price_max'));
    await showsCount(page, '2 products');

    // The brand's chip removes it; a category opens its children.
    await page.getByRole('link', { name: 'Remove Brand: Glowmaster' }).click();
    await page.waitForURL((url) => !url.searchParams.has('brand'));
    await showsCount(page, '7 products');
    await facet('Category').getByRole('link', { name: 'Outdoor (6)' }).click();
    await facet('Category').getByRole('link', { name: 'Lighting (5)' }).click();
    await page.waitForURL((url) => url.searchParams.get('category') === String(data.categories.lighting));
    await showsCount(page, '5 products');
    await facet('Category').getByRole('link', { name: 'Lanterns (4)' }).waitFor();
    await facet('Category').getByRole('link', { name: 'Kitchen (1)' }).waitFor();

    // Sort by price: cheapest first, the keyword and filters kept.
    await sort(page).selectOption({ label: 'Price: low to high' });
    await page.waitForURL((url) => url.searchParams.get('sort') === 'price');
    await page.locator('.product-card h3').first().filter({ hasText: 'Wick Trimmer' }).waitFor();
    expect(new URL(page.url()).searchParams.get('category')).toBe(String(data.categories.lighting));
    expect(store.problems).toEqual([]);
  });

  it('opens a filtered search with one GraphQL request', async () => {
    const { store, page } = await open();
    const requests: string[] = [];
    page.on('request', (req) => {
      if (isGraphql(req)) requests.push(operation(req).query ?? '');
    });
    await page.goto(`/search?q=lantern&brand=${data.brands.brightway}&shop=${await shopOf('Lantern Pro')}&sort=sales`);
    await showsCount(page, '1 product');
    await page.getByRole('link', { name: 'Lantern Pro' }).waitFor();
    await page.waitForLoadState('networkidle');
    expect(requests).toHaveLength(1);
    expect(requests[0]).toContain('query SearchPage');
    expect(requests[0]).toContain('productFacets');
    expect(store.problems).toEqual([]);
  });

  it('says when nothing matches, and copes with a long or punctuation-only keyword', async () => {
    const { store, page } = await open();
    await page.goto('/search?q=zzqqxxvv');
    await page.getByText('No products match “zzqqxxvv”').waitFor();
    await page.goto(`/search?q=lantern&brand=${data.brands.lanternworks}`);
    await page.getByText('with these filters').waitFor();
    await page.getByRole('link', { name: 'Search without filters' }).click();
    await page.waitForURL((url) => url.search === '?q=lantern');
    await showsCount(page, '7 products');
    // Over 200 characters: searched by the first 200. Punctuation only: everything is listed.
    await page.goto(`/search?q=${encodeURIComponent(`lantern ${'x'.repeat(300)}`)}`);
    await count(page).waitFor();
    await page.goto(`/search?q=${encodeURIComponent('%_\\!?')}`);
    await showsCount(page, '9 products');
    expect(await page.getByRole('alert').count()).toBe(0);
    expect(store.problems).toEqual([]);
  });

  it('renders suggestions and facets at mobile width', async () => {
    const { store, page } = await open(MOBILE);
    await page.goto('/search?q=lantern');
    await showsCount(page, '7 products');
    // Folded above the results on a phone; open on demand.
    await page.getByText('Filters', { exact: true }).click();
    await page.getByRole('region', { name: 'Brand' }).getByRole('link', { name: 'Glowmaster (2)' }).waitFor();
    await store.screenshot(page, 'search-facets-mobile');
    const box = page.getByRole('combobox', { name: 'Search products' });
    await box.fill('');
    await box.pressSequentially('lant', { delay: 40 });
    await page.getByRole('listbox', { name: 'Suggestions' }).waitFor();
    await store.screenshot(page, 'search-suggestions-mobile');
    expect(store.problems).toEqual([]);
  });
});

async function shopOf(product: string): Promise<number> {
  const [row] = await t.sql<{ shop_id: number }>('select shop_id from product where id = ?', [data.products[product]]);
  return row.shop_id;
}
