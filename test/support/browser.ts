import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { PNG } from 'pngjs';
import { chromium, type Browser, type BrowserContext, type BrowserContextOptions, type Page } from 'playwright-core';
import type { TestServer } from './servers.js';

/**
 * Debian's Chromium driven by playwright-core (no browser download; .ci/run installs it). Its headless shell
 * (`apt-get install -y chromium-headless-shell`, the same Blink without the browser's window layer, which Playwright
 * itself uses for headless runs) when there, else the full browser: the shell took a third less time for the same
 * browser tests on this 2-core machine (docs/operations.md, "Continuous integration"). The flags keep Chromium off the
 * network this machine does not have, and out of a sandbox root cannot use.
 */
const HEADLESS_SHELL = '/usr/bin/chromium-headless-shell';
export const CHROMIUM =
  process.env.CANVAS_MCP_CHROMIUM ?? (existsSync(HEADLESS_SHELL) ? HEADLESS_SHELL : '/usr/bin/chromium');

export const SCREENSHOT_DIR = join(process.cwd(), 'test-results', 'screenshots');

export async function launchBrowser(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(
      `No Chromium at ${CHROMIUM}: install Debian's (apt-get install -y chromium-headless-shell) or set CANVAS_MCP_CHROMIUM.`,
    );
  }
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

export interface Person {
  issuer: string;
  subject: string;
}

/** A signed-in page: a one-time login link for the person (a project member), opened in a fresh browser context. */
export async function signIn(
  browser: Browser,
  server: TestServer,
  person: Person,
  target: { projectId: string; canvasId: string } | null,
  viewport = DESKTOP,
  /** More of the browser context: a tablet's `hasTouch` and `isMobile`, say. */
  options: BrowserContextOptions = {},
): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
  const secret = await server.store.sessions.createLoginLink(person, {
    expiresInMs: 60_000,
    projectId: target?.projectId ?? null,
    canvasId: target?.canvasId ?? null,
  });
  return openLink(browser, `${server.url}/auth/login?token=${secret}`, viewport, options);
}

export const DESKTOP = { width: 1440, height: 900 };
/** A screen large enough that a canvas of a few dozen cards fits at a zoom where cards show their details. */
export const WALL = { width: 3840, height: 2160 };

export async function openLink(
  browser: Browser,
  url: string,
  viewport = DESKTOP,
  options: BrowserContextOptions = {},
): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
  const context = await browser.newContext({ ...options, viewport });
  const page = await context.newPage();
  // Every uncaught error of the page is a failure the test reports.
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  if (process.env.CANVAS_MCP_BROWSER_LOG) {
    const started = Date.now();
    page.on('console', (message) =>
      console.log(`[page +${Date.now() - started} ms] ${message.type()}: ${message.text()}`),
    );
    page.on('request', (request) =>
      console.log(`[page +${Date.now() - started} ms] ${request.method()} ${request.url()}`),
    );
    page.on('requestfailed', (request) =>
      console.log(`[page +${Date.now() - started} ms] failed ${request.url()} ${request.failure()?.errorText}`),
    );
  }
  await page.goto(url);
  // A sign-in link opens a page that spends nothing; the person confirms with its button.
  if (new URL(url).pathname === '/auth/login') {
    await Promise.all([
      page.waitForURL((next) => next.pathname !== '/auth/login', { timeout: 10_000 }),
      page.getByRole('button', { name: /^Sign in as / }).click({ timeout: 10_000 }),
    ]);
  }
  return { context, page, errors };
}

/** The card of a node on the canvas. */
export function card(page: Page, nodeId: string) {
  return page.locator(`.react-flow__node[data-id="${nodeId}"]`);
}

/**
 * Saves a screenshot under test-results/screenshots (not in git) and returns how much of it is not background: a
 * blank or single-colour page answers close to 0.
 */
export async function screenshot(
  page: Page,
  name: string,
): Promise<{ path: string; inkRatio: number; colours: number }> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const path = join(SCREENSHOT_DIR, `${name}.png`);
  const png = PNG.sync.read(await page.screenshot({ path }));
  const counts = new Map<number, number>();
  for (let offset = 0; offset < png.data.length; offset += 4 * 7) {
    const colour = (png.data[offset]! << 16) | (png.data[offset + 1]! << 8) | png.data[offset + 2]!;
    counts.set(colour, (counts.get(colour) ?? 0) + 1);
  }
  const samples = [...counts.values()].reduce((sum, count) => sum + count, 0);
  const background = Math.max(...counts.values());
  return { path, inkRatio: (samples - background) / samples, colours: counts.size };
}
