/**
 * Checks run on every dashboard page by the accessibility and layout tests: axe-core (injected from
 * node_modules with playwright-core; the page's CSP does not apply to `evaluate`), horizontal overflow, and
 * each route with what shows it has rendered.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Browser, Page } from 'playwright-core';
import { expect } from 'vitest';
import { PAGE_TABLES, startPagesHarness, type PagesHarness } from '../support/pages-harness.ts';
import { launchBrowser } from './support.ts';

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

const { zapp, zip, buzzer } = PAGE_TABLES;

/**
 * The controller and browser the layout checks run on, every route with something to show: Zapp Zerapp played to
 * its moves, and a decided question on the buzzer table (one press: the big screen shows its winner).
 */
export async function startCheckedPages(): Promise<{ harness: PagesHarness; browser: Browser }> {
  const harness = await startPagesHarness();
  const browser = await launchBrowser();
  await harness.playZappToMoves();
  expect((await harness.request(buzzer.id, 'buzzer/arm', {})).status).toBe('ok');
  expect((await harness.request(buzzer.id, 'simulate', { station: 't3-seat-1', op: 'press' })).status).toBe('ok');
  return { harness, browser };
}

/** Every page of the dashboard, with a selector that is there once it shows its table's content. */
export const ROUTES: readonly { readonly name: string; readonly hash: string; readonly ready: string }[] = [
  { name: 'overview', hash: '#/', ready: `[data-table="${zapp.id}"] [data-testid=game]` },
  { name: 'Zapp Zerapp game', hash: `#/table/${zapp.id}`, ready: '[data-testid=move-list]' },
  { name: 'Zip-Zap game', hash: `#/table/${zip.id}`, ready: '[data-testid=mode-banner]' },
  { name: 'buzzer big screen', hash: `#/table/${buzzer.id}`, ready: '[data-testid=hero][data-result=winner]' },
  { name: 'Zapp Zerapp referee', hash: `#/table/${zapp.id}/referee`, ready: 'button[data-move]' },
  { name: 'Zip-Zap referee', hash: `#/table/${zip.id}/referee`, ready: '[data-testid=announce-stuck]' },
  { name: 'health', hash: `#/table/${zapp.id}/health`, ready: '[data-testid=stations] tbody tr' },
  { name: 'buzzer host', hash: `#/table/${buzzer.id}/host`, ready: '[data-testid=arm]' },
  { name: 'simulator', hash: `#/table/${zapp.id}/simulator`, ready: 'section.sim-seat' },
  { name: 'buzzer simulator', hash: `#/table/${buzzer.id}/simulator`, ready: 'section.sim-seat' },
  { name: 'notices', hash: `#/table/${zapp.id}/notices`, ready: '[data-testid=notice-list] :is(ol, p)' },
  { name: 'station', hash: `#/table/${zapp.id}/station/seat-1`, ready: '[data-testid=clock-chart] svg path.chart-line' },
  { name: 'configuration', hash: '#/config', ready: '[data-testid=config-status]:not(:empty)' },
  { name: 'game record', hash: `#/table/${zapp.id}/record`, ready: '[data-testid=record-moves] li' },
];

export const PHONE = { width: 390, height: 844 };
export const DESKTOP = { width: 1400, height: 1000 };
export const TV = { width: 1920, height: 1080 };

export interface AxeViolation {
  readonly id: string;
  readonly impact: string | null;
  readonly help: string;
  readonly targets: readonly string[];
}

/** Runs axe-core on the whole document (WCAG 2.x A/AA and best-practice rules: its defaults). */
export async function runAxe(page: Page): Promise<AxeViolation[]> {
  await page.evaluate(AXE_SOURCE);
  return page.evaluate(`(async () => {
    const result = await window.axe.run(document, { resultTypes: ['violations'] });
    return result.violations.map((v) => ({ id: v.id, impact: v.impact ?? null, help: v.help, targets: v.nodes.map((n) => n.target.join(' ')) }));
  })()`);
}

/** Serious and critical only: what the tests refuse. */
export function serious(violations: readonly AxeViolation[]): AxeViolation[] {
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}

export interface PageSize {
  readonly scrollWidth: number;
  readonly scrollHeight: number;
  readonly innerWidth: number;
  readonly innerHeight: number;
}

export async function pageSize(page: Page): Promise<PageSize> {
  return page.evaluate(`({ scrollWidth: document.documentElement.scrollWidth, scrollHeight: document.documentElement.scrollHeight,
    innerWidth: window.innerWidth, innerHeight: window.innerHeight })`);
}

/** What sticks out on the right, for the failure message. */
export async function widest(page: Page): Promise<string[]> {
  return page.evaluate(`[...document.querySelectorAll('main *')].filter((e) => e.getBoundingClientRect().right > window.innerWidth + 0.5)
    .slice(0, 5).map((e) => e.tagName.toLowerCase() + '.' + [...e.classList].join('.') + ' ' + Math.round(e.getBoundingClientRect().right))`);
}
