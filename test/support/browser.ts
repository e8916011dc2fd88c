import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import type { TestApp } from './harness.js';

/** Chromium from Debian (`apt-get install -y chromium`; `.ci/run` installs it when missing). */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'];

/**
 * The timeout of a browser test file's tests and hooks (`vi.setConfig` at its top). It guards
 * against a hang and measures nothing: a walk through every page took 30 s on a quiet machine and
 * 88 s on one running other suites beside it, past the suite's default 60 s. Each wait inside has its own
 * deadline (`WAIT_TIMEOUT_MS`), so a page that never shows what a test waits for still fails quickly.
 */
export const BROWSER_TEST_TIMEOUT_MS = 300_000;
/** How long one wait for a page's element or state may take (Playwright's default for each context). */
export const WAIT_TIMEOUT_MS = 30_000;

export const DESKTOP = { width: 1280, height: 800 };
export const MOBILE = { width: 390, height: 844 };
export const TABLET = { width: 768, height: 1024 };

/** Screenshots land here (gitignored). */
export const SCREENSHOT_DIR = join(process.cwd(), 'test-output', 'screenshots');

export function launchBrowser(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) throw new Error(`No Chromium at ${CHROMIUM}: apt-get install -y chromium`);
  return chromium.launch({ executablePath: CHROMIUM, args: ARGS, headless: true });
}

/**
 * A browser context on the test app that records every console error and uncaught page error of
 * its pages: a test ends with `expect(store.problems).toEqual([])`.
 */
export class StoreContext {
  readonly problems: string[] = [];
  private constructor(readonly context: BrowserContext, readonly baseUrl: string) {}

  static async open(browser: Browser, t: TestApp, viewport = DESKTOP, session?: unknown): Promise<StoreContext> {
    const context = await browser.newContext({ baseURL: t.baseUrl, viewport, locale: 'en-US', timezoneId: 'Asia/Shanghai' });
    context.setDefaultTimeout(WAIT_TIMEOUT_MS);
    if (session) await context.addInitScript((s) => localStorage.setItem('mallfront.session', s), JSON.stringify(session));
    return new StoreContext(context, t.baseUrl);
  }

  async page(): Promise<Page> {
    const page = await this.context.newPage();
    page.on('console', (msg) => {
      if (msg.type() === 'error') this.problems.push(`console.error on ${page.url()}: ${msg.text()}`);
    });
    page.on('pageerror', (error) => this.problems.push(`page error on ${page.url()}: ${error.message}`));
    return page;
  }

  async screenshot(page: Page, name: string): Promise<void> {
    mkdirSync(SCREENSHOT_DIR, { recursive: true });
    await page.screenshot({ path: join(SCREENSHOT_DIR, `${name}.png`), fullPage: true });
  }

  close(): Promise<void> {
    return this.context.close();
  }
}

/** The session the web app keeps in localStorage, from a GraphQL login. */
export async function sessionFor(t: TestApp, email: string, password: string): Promise<unknown> {
  const res = await t.gql(
    `mutation($input: LoginInput!) { login(input: $input) { session { token expiresAt user { id email displayName role shopId } } userErrors { code } } }`,
    { input: { email, password } },
  );
  if (res.errors || !res.data.login.session) throw new Error(`login failed: ${JSON.stringify(res.errors ?? res.data.login.userErrors)}`);
  return res.data.login.session;
}

/**
 * Pages of a test file in contexts of their own, all closed with `close()` in `afterAll` (which
 * also closes the browser): `open()` gives a page on the app at a viewport.
 */
export function storePages(running: () => { browser: Browser; t: TestApp }) {
  const contexts: StoreContext[] = [];
  return {
    /** `session`: signed in as that session (`sessionFor`) on every page of the context. */
    async open(viewport = DESKTOP, session?: unknown): Promise<{ store: StoreContext; page: Page }> {
      const { browser, t } = running();
      const store = await StoreContext.open(browser, t, viewport, session);
      contexts.push(store);
      return { store, page: await store.page() };
    },
    async close(): Promise<void> {
      for (const c of contexts.splice(0)) await c.close();
      await running().browser?.close();
    },
  };
}

/** The page's CLS so far: every layout shift since it began (buffered) that no input caused. */
export async function layoutShift(page: Page): Promise<number> {
  return Number(
    await page.evaluate(`(() => {
      const observer = new PerformanceObserver(() => {});
      observer.observe({ type: 'layout-shift', buffered: true });
      return observer.takeRecords().filter((e) => !e.hadRecentInput).reduce((sum, e) => sum + e.value, 0);
    })()`),
  );
}
