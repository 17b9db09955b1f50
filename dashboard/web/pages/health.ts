/**
 * Station health: online, firmware, last seen, error counters, clock offset and drift, and a live plot of each
 * pad's settled weight (uPlot) with the item whose tag is read now. The weight comes from the optional `pad`
 * field of a station's health; while it would tell a secret (a barrel before the reveal) the controller
 * withholds it and the plot shows a gap.
 */
import uPlot from 'uplot';
import { ago, h, replace } from '../dom.ts';
import type { PageContext } from '../page.ts';
import type { StationHealth } from '../types.ts';

/** The plots show the last two minutes. */
const WINDOW_S = 120;
const ERRORS = ['badLines', 'lostEvents', 'timeouts', 'commandErrors', 'resets', 'disconnects'] as const;

function row(s: StationHealth): HTMLElement {
  return h('tr', { 'data-station': s.station },
    h('th', { scope: 'row' }, s.station),
    h('td', {}, s.kind),
    h('td', {}, h('span', { class: `badge ${s.online ? 'status-online' : 'status-offline'}` }, s.online ? 'online' : 'offline')),
    h('td', {}, s.firmware === undefined ? '—' : `${s.firmware}${s.protocol === undefined ? '' : ` (p${s.protocol})`}`),
    h('td', {}, ago(s.lastSeenMs)),
    h('td', { class: 'errors' }, ERRORS.map((k) => (s.errors[k] > 0 ? h('span', { class: 'err' }, `${k} ${s.errors[k]} `) : null)),
      ERRORS.every((k) => s.errors[k] === 0) ? 'none' : null),
    h('td', {}, s.clock === undefined ? '—' : `${(s.clock.offsetUs / 1000).toFixed(2)} ms`),
    h('td', {}, s.clock === undefined ? '—' : `${s.clock.driftPpm.toFixed(1)} ppm`),
    h('td', {}, s.clock === undefined ? '—' : `±${(s.clock.uncertaintyUs / 1000).toFixed(2)} ms`));
}

export class HealthPage {
  readonly element = h('div', { class: 'health' });
  private readonly tableHost = h('div', { class: 'table-scroll' });
  private readonly plotsHost = h('div', { class: 'plots' });
  private readonly plots = new Map<string, { plot: uPlot; tag: HTMLElement; box: HTMLElement }>();

  /** Redraws every second, so "last seen" ages and the plots scroll while nothing changes. */
  private readonly ticker: number;

  constructor(private readonly ctx: PageContext) {
    this.element.append(h('h1', {}, `Station health — ${ctx.table}`), this.tableHost, h('h2', {}, 'Pad weights'), this.plotsHost);
    this.ticker = window.setInterval(() => {
      this.update();
    }, 1000);
  }

  update(): void {
    const t = this.ctx.store.table(this.ctx.table);
    const stations = [...t.health.values()].sort((a, b) => a.station.localeCompare(b.station));
    replace(this.tableHost, stations.length === 0 ? h('p', { class: 'muted' }, 'No station has reported its health.') :
        h('table', { class: 'stations', 'data-testid': 'stations' },
          h('thead', {}, h('tr', {}, ['station', 'kind', 'status', 'firmware', 'last seen', 'errors', 'clock offset', 'drift', 'uncertainty']
            .map((c) => h('th', { scope: 'col' }, c)))),
          h('tbody', {}, stations.map(row))));
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
