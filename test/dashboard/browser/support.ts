/**
 * Real-browser support: Debian's chromium driven by playwright-core, one browser per test file, every
 * WebSocket frame a page receives recorded (for the hidden-information checks), screenshots saved as test
 * artefacts under test-results/screenshots/ (git-ignored).
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';

export const SCREENSHOTS = path.resolve(import.meta.dirname, '..', '..', '..', 'test-results', 'screenshots');

export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
}

/** A page with its received WebSocket frames and its console errors / page errors collected. */
export interface WatchedPage {
  readonly page: Page;
  readonly frames: string[];
  readonly errors: string[];
}

export async function openPage(browser: Browser, url: string, viewport = { width: 1400, height: 1000 }): Promise<WatchedPage> {
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  const frames: string[] = [];
  const errors: string[] = [];
  page.on('websocket', (ws) => {
    ws.on('framereceived', ({ payload }) => {
      frames.push(typeof payload === 'string' ? payload : payload.toString('utf8'));
    });
  });
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => {
    errors.push(error.message);
  });
  await page.goto(url);
  return { page, frames, errors };
}

export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`), fullPage: true });
}

/** Every value in a JSON document whose key is `key`, at any depth. */
export function valuesOfKey(json: unknown, key: string): unknown[] {
  const out: unknown[] = [];
  const walk = (v: unknown): void => {
    if (Array.isArray(v)) v.forEach(walk);
    else if (typeof v === 'object' && v !== null) {
      for (const [k, x] of Object.entries(v)) {
        if (k === key) out.push(x);
        walk(x);
      }
    }
  };
  walk(json);
  return out;
}
