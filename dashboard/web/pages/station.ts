/**
 * `#/table/<id>/station/<station>`: one station's health over time — its clock uncertainty and its error
 * counters (with `disconnects`, its reconnections) as small charts, and the same figures as a table for those
 * who do not read charts. The history is what the dashboard kept since it started
 * (`/api/tables/<id>/stations/<station>/history`: an hour of changes), then what arrives live.
 */
import { judgeUncertainty, UNCERTAINTY_GOOD_US, UNCERTAINTY_OK_US } from '../clock-figures.ts';
import { ago, clock, h, replace } from '../dom.ts';
import { addSample, sampleOf, type HealthSample } from '../health-samples.ts';
import type { PageContext } from '../page.ts';
import { routeHref } from '../routes.ts';
import { stepChart } from '../svg-chart.ts';

const COUNTERS = ['badLines', 'lostEvents', 'timeouts', 'commandErrors', 'resets', 'disconnects'] as const;
/** The table's rows at most (the newest). */
const TABLE_ROWS = 60;

export class StationPage {
  readonly element = h('div', { class: 'station-page' });
  private readonly station: string;
  private readonly now = h('dl', { class: 'station-now', 'data-testid': 'station-now' });
  private readonly clockChart = h('div', { class: 'chart-box', 'data-testid': 'clock-chart' });
  private readonly errorChart = h('div', { class: 'chart-box', 'data-testid': 'error-chart' });
  private readonly errorText = h('p', { class: 'muted chart-note', 'data-testid': 'error-summary' });
  private readonly tableBody = h('tbody', {});
  private readonly sinceText = h('p', { class: 'muted station-since', 'data-testid': 'station-since' }, 'Reading the history kept so far…');
  private readonly samples: HealthSample[] = [];
  private loaded = false;

  constructor(private readonly ctx: PageContext) {
    this.station = ctx.args?.[0] ?? '';
    const name = ctx.store.bridgeEntry(ctx.table)?.name ?? ctx.table;
    this.element.append(h('h1', {}, `Station ${this.station} — ${name}`),
      h('p', {}, h('a', { href: routeHref('health', ctx.table) }, 'All stations of this table (health)')),
      this.now, this.sinceText,
      h('section', { 'aria-labelledby': 'clock-h' }, h('h2', { id: 'clock-h' }, 'Clock uncertainty over time'), this.clockChart,
        h('p', { class: 'muted chart-note' }, 'Good up to 1 ms; up to 5 ms ties are still decided by the tag windows (±4 ms); beyond '
          + '5 ms, or not synced (a gap), the clock would decide them.')),
      h('section', { 'aria-labelledby': 'errors-h' }, h('h2', { id: 'errors-h' }, 'Error counters over time'), this.errorChart, this.errorText),
      h('details', { class: 'panel' }, h('summary', {}, 'The figures as a table'),
        h('div', { class: 'table-scroll', tabindex: 0, role: 'region', 'aria-label': 'Samples (scrolls sideways)' },
          h('table', { class: 'stations', 'data-testid': 'station-samples' },
            h('thead', {}, h('tr', {}, ['time', 'status', 'uncertainty', ...COUNTERS].map((c) => h('th', { scope: 'col' }, c)))),
            this.tableBody))));
    void this.load();
  }

  private async load(): Promise<void> {
    const url = `/api/tables/${encodeURIComponent(this.ctx.table)}/stations/${encodeURIComponent(this.station)}/history`;
    type Answer = { since: number; samples: HealthSample[] };
    const body = await fetch(url).then(async (r) => (r.ok ? r.json() as Promise<Answer> : undefined)).catch(() => undefined);
    this.samples.unshift(...(body?.samples ?? []));
    this.loaded = true;
    this.sinceText.textContent = `Kept since ${clock(body?.since ?? Date.now())} (when this dashboard started), one sample per change.`;
    this.update();
  }

  update(): void {
    const health = this.ctx.store.table(this.ctx.table).health.get(this.station);
    if (this.loaded) addSample(this.samples, sampleOf(health, Date.now()));
    const u = health?.clock === undefined ? undefined : judgeUncertainty(health.clock.uncertaintyUs);
    replace(this.now,
      h('dt', {}, 'status'), h('dd', {}, health === undefined ? 'no health received' : health.online ? 'online' : 'offline'),
      h('dt', {}, 'kind'), h('dd', {}, health?.kind ?? '—'),
      h('dt', {}, 'last seen'), h('dd', {}, ago(health?.lastSeenMs)),
      h('dt', {}, 'clock uncertainty'), h('dd', {}, u === undefined ? '—' : `${u.text} (${u.judgement ?? ''})`),
      h('dt', {}, 'errors'), h('dd', {}, health === undefined ? '—' : COUNTERS.filter((k) => health.errors[k] > 0).map((k) => `${k} ${health.errors[k]}`).join(', ') || 'none'));
    const points = this.samples.map((x) => [x.at, x.online && typeof x.uncertaintyUs === 'number' ? x.uncertaintyUs / 1000 : null] as const);
    replace(this.clockChart, stepChart({
      name: `Clock uncertainty of ${this.station} over time, in ms`, unit: 'ms', minTop: 6, until: Date.now(),
      series: [{ label: 'uncertainty (ms)', tone: 'clock', points }],
      thresholds: [{ value: UNCERTAINTY_GOOD_US / 1000, label: '1 ms' }, { value: UNCERTAINTY_OK_US / 1000, label: '5 ms: ties by the clock' }],
    }));
    const rising = COUNTERS.filter((k) => this.samples.some((x) => (x.errors[k] ?? 0) > 0));
    replace(this.errorChart, stepChart({
      name: `Error counters of ${this.station} over time: ${rising.length === 0 ? 'all zero' : rising.join(', ')}`, unit: '', minTop: 1, until: Date.now(),
      series: rising.map((k, i) => ({ label: k, tone: `c${i}`, points: this.samples.map((x) => [x.at, x.errors[k] ?? 0] as const) })),
    }));
    const last = this.samples[this.samples.length - 1];
    this.errorText.textContent = rising.length === 0 ? 'Every counter has stayed at 0.'
      : `Lines: ${rising.map((k, i) => `${k} (line ${i + 1}) now ${last?.errors[k] ?? 0}`).join(', ')}. disconnects counts the station's reconnections.`;
    replace(this.tableBody, this.samples.slice(-TABLE_ROWS).reverse().map((x) => h('tr', {},
      h('td', {}, clock(x.at)), h('td', {}, x.online ? 'online' : 'offline'),
      h('td', {}, x.uncertaintyUs === undefined ? '—' : judgeUncertainty(x.uncertaintyUs).text),
      COUNTERS.map((k) => h('td', {}, String(x.errors[k] ?? 0))))));
  }
}
