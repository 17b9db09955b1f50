/**
 * Station health: online, firmware, last seen, error counters, clock offset and drift, and a live plot of each
 * pad's settled weight (uPlot) with the item whose tag is read now. The weight comes from the optional `pad`
 * field of a station's health; while it would tell a secret (a barrel before the reveal) the controller
 * withholds it and the plot shows a gap.
 */
import uPlot from 'uplot';
import { judgeDrift, judgeOffset, judgeUncertainty, type JudgedFigure } from '../clock-figures.ts';
import { ago, h, replace } from '../dom.ts';
import type { PageContext } from '../page.ts';
import { routeHref } from '../routes.ts';
import type { StationHealth } from '../types.ts';

/** The plots show the last two minutes. */
const WINDOW_S = 120;
const ERRORS = ['badLines', 'lostEvents', 'timeouts', 'commandErrors', 'resets', 'disconnects'] as const;

/** A clock figure with its judgement in words (colour is never the only cue) and the reason as its title. */
function figure(f: JudgedFigure): HTMLElement {
  return h('td', { class: `clock-figure ${f.judgement ?? 'plain'}`, title: f.why },
    f.text, f.judgement === null ? null : h('span', { class: `judge judge-${f.judgement}` }, f.judgement));
}

function row(s: StationHealth, table: string): HTMLElement {
  return h('tr', { 'data-station': s.station },
    // The station's own page: its health over time.
    h('th', { scope: 'row' }, h('a', { href: routeHref('station', table, s.station) }, s.station)),
    h('td', {}, s.kind),
    h('td', {}, h('span', { class: `badge ${s.online ? 'status-online' : 'status-offline'}` }, s.online ? 'online' : 'offline')),
    h('td', {}, s.firmware === undefined ? '—' : `${s.firmware}${s.protocol === undefined ? '' : ` (p${s.protocol})`}`),
    h('td', {}, ago(s.lastSeenMs)),
    h('td', { class: 'errors' }, ERRORS.map((k) => (s.errors[k] > 0 ? h('span', { class: 'err' }, `${k} ${s.errors[k]} `) : null)),
      ERRORS.every((k) => s.errors[k] === 0) ? 'none' : null),
    s.clock === undefined ? h('td', {}, '—') : figure(judgeOffset(s.clock.offsetUs)),
    s.clock === undefined ? h('td', {}, '—') : figure(judgeDrift(s.clock.driftPpm)),
    // null in JSON while unbounded (docs/mqtt.md), whatever the type says.
    s.clock === undefined ? h('td', {}, '—') : figure(judgeUncertainty(s.clock.uncertaintyUs as number | null)));
}

export class HealthPage {
  readonly element = h('div', { class: 'health' });
  // Scrolls sideways on a phone: focusable and named, so keyboard users can scroll it too.
  private readonly tableHost = h('div', { class: 'table-scroll', tabindex: 0, role: 'region', 'aria-label': 'Stations (scrolls sideways)' });
  private readonly plotsHost = h('div', { class: 'plots' });
  private readonly plots = new Map<string, { plot: uPlot; tag: HTMLElement; box: HTMLElement }>();

  /** Redraws every second, so "last seen" ages and the plots scroll while nothing changes. */
  private readonly ticker: number;

  constructor(private readonly ctx: PageContext) {
    this.element.append(h('h1', {}, `Station health — ${ctx.store.bridgeEntry(ctx.table)?.name ?? ctx.table}`), this.tableHost,
      h('p', { class: 'muted health-note' }, 'Clock offset is where a station\'s clock started (its boot), not an error. Drift: good up to 1000 ppm, '
        + 'ok within a ceramic resonator\'s ±0.5 % (5000 ppm). Uncertainty: good up to 1 ms, ok up to 5 ms (ties are still decided by the '
        + 'tag windows, ±4 ms), beyond that the clock would decide ties. Resets count restarts seen in a station\'s clock after it was '
        + 'first online.'),
      h('h2', {}, 'Pad weights'), this.plotsHost);
    this.ticker = window.setInterval(() => {
      this.update();
    }, 1000);
  }

  update(): void {
    const t = this.ctx.store.table(this.ctx.table);
    const stations = [...t.health.values()].sort((a, b) => a.station.localeCompare(b.station));
    // Redrawn every second: keep where a phone user scrolled the table to.
    const scrolled = this.tableHost.scrollLeft;
    replace(this.tableHost, stations.length === 0 ? h('p', { class: 'muted' }, 'No station has reported its health.') :
        h('table', { class: 'stations', 'data-testid': 'stations' },
          h('thead', {}, h('tr', {}, ['station', 'kind', 'status', 'firmware', 'last seen', 'errors', 'clock offset', 'drift', 'uncertainty']
            .map((c) => h('th', { scope: 'col' }, c)))),
          h('tbody', {}, stations.map((s) => row(s, this.ctx.table)))));
    this.tableHost.scrollLeft = scrolled;
    for (const s of stations) {
      const series = t.weights.get(s.station);
      if (series === undefined) continue;
      // The last reading holds until the next one: extend it to now.
      const now = Date.now() / 1000;
      const data: uPlot.AlignedData = [[...series.t, now], [...series.g, series.g[series.g.length - 1] ?? null]];
      let entry = this.plots.get(s.station);
      if (entry === undefined) {
        const tag = h('p', { class: 'tag-read' });
        const chart = h('div', { class: 'chart' });
        const box = h('figure', { class: 'plot', 'data-station': s.station }, h('figcaption', {}, s.station), tag, chart);
        this.plotsHost.append(box);
        const width = Math.max(240, (box.clientWidth || 320) - 24);
        const plot = new uPlot({
          width, height: 160, legend: { show: false },
          scales: {
            x: { time: true, range: (_u, _min, max) => [max - WINDOW_S, max] },
            y: { range: (_u, _min, max) => [0, Math.max(20, max * 1.2)] },
          },
          series: [{}, { label: 'grams', stroke: '#3ddc84', width: 2, spanGaps: false, paths: uPlot.paths.stepped?.({ align: 1 }) }],
          axes: [{ stroke: '#a9b0bc' }, { stroke: '#a9b0bc', label: 'g' }],
        }, data, chart);
        entry = { plot, tag, box };
        this.plots.set(s.station, entry);
      } else {
        entry.plot.setData(data);
      }
      const pad = s.pad;
      entry.tag.textContent = pad === undefined ? '' : pad.hidden === true ? 'reading withheld: it would tell a secret'
        : `${pad.grams === null ? '—' : `${pad.grams.toFixed(1)} g`} · ${pad.tag === null ? 'no tag' : `tag: ${pad.tag.label}`}`;
    }
    if (this.plots.size === 0 && this.plotsHost.childElementCount === 0) {
      this.plotsHost.append(h('p', { class: 'muted empty-plots' }, 'No pad readings published for this table.'));
    } else if (this.plots.size > 0) {
      this.plotsHost.querySelector('.empty-plots')?.remove();
    }
  }

  destroy(): void {
    window.clearInterval(this.ticker);
    for (const { plot } of this.plots.values()) plot.destroy();
  }
}
