/**
 * `#/table/<id>/notices`: the table's notices over time, newest first, with a filter by severity. Two sources,
 * both public: the controller's `NOTICE` events (what the table saw and changed nothing for: an unknown tag, a
 * barrel whose weight disagrees with its tag, …; docs/mqtt.md) and what changed in its stations' health (a
 * station offline, an error counter rising, a clock that would decide ties; health-samples.ts). On opening, the
 * page asks the dashboard what it kept since it started (`/api/tables/<id>/notices`, `…/health/history`: the
 * last 100 notices, an hour of health per station); then it adds what arrives live.
 */
import { clock, h, replace } from '../dom.ts';
import { addSample, healthNotices, noticeLine, sampleOf, type HealthSample, type NoticeLine, type Severity } from '../health-samples.ts';
import { namesOf } from '../names.ts';
import type { PageContext } from '../page.ts';

const SEVERITIES: readonly { readonly id: Severity; readonly label: string; readonly one: string }[] = [
  { id: 'problem', label: 'Problems', one: 'problem' }, { id: 'warning', label: 'Warnings', one: 'warning' }, { id: 'info', label: 'Information', one: 'info' },
];

/** The lines shown at most (the newest). */
const MAX_LINES = 200;

export class NoticesPage {
  readonly element = h('div', { class: 'notices' });
  private readonly list = h('div', { class: 'notice-list', 'data-testid': 'notice-list' });
  private readonly summary = h('p', { class: 'muted', 'data-testid': 'notice-summary', role: 'status' }, 'Reading the notices kept so far…');
  private readonly shown = new Set<Severity>(SEVERITIES.map((s) => s.id));
  private readonly fetched = new Map<string, NoticeLine>();
  private readonly samples = new Map<string, HealthSample[]>();
  private since: number | undefined;
  private key = '';

  constructor(private readonly ctx: PageContext) {
    const name = ctx.store.bridgeEntry(ctx.table)?.name ?? ctx.table;
    const filter = h('fieldset', { class: 'notice-filter' }, h('legend', {}, 'Show'),
      SEVERITIES.map((s) => h('label', { class: `sev sev-${s.id}` },
        h('input', {
          type: 'checkbox', checked: true, 'data-severity': s.id,
          onchange: (e: Event) => {
            if ((e.target as HTMLInputElement).checked) this.shown.add(s.id);
            else this.shown.delete(s.id);
            this.update();
          },
        }), ` ${s.label}`)));
    this.element.append(h('h1', {}, `Notices — ${name}`),
      h('p', { class: 'muted' }, 'What the table noticed and changed nothing for (an unknown tag, a barrel that weighs wrong, a card '
        + 'on the pile while hands are registered), and what changed in its stations\' health. Newest first.'),
      filter, this.summary, this.list);
    void this.load();
  }

  private async load(): Promise<void> {
    const base = `/api/tables/${encodeURIComponent(this.ctx.table)}`;
    const [notices, health] = await Promise.all([
      fetch(`${base}/notices`).then(async (r) => (r.ok ? r.json() as Promise<{ since: number; notices: Record<string, unknown>[] }> : undefined)).catch(() => undefined),
      fetch(`${base}/health/history`).then(async (r) => (r.ok ? r.json() as Promise<{ since: number; stations: Record<string, HealthSample[]> }> : undefined)).catch(() => undefined),
    ]);
    for (const n of notices?.notices ?? []) {
      const line = noticeLine(n);
      if (line !== undefined) this.fetched.set(line.key, line);
    }
    for (const [station, list] of Object.entries(health?.stations ?? {})) {
      this.samples.set(station, [...list, ...(this.samples.get(station) ?? [])]);
    }
    this.since = notices?.since ?? health?.since ?? Date.now();
    this.key = '';
    this.update();
  }

  /** Adds the store's current health of each station when it reads differently from the last sample. */
  private sampleLive(): void {
    for (const health of this.ctx.store.table(this.ctx.table).health.values()) {
      let list = this.samples.get(health.station);
      if (list === undefined) this.samples.set(health.station, list = []);
      addSample(list, sampleOf(health, Date.now()));
    }
  }

  update(): void {
    if (this.since === undefined) return;
    this.sampleLive();
    const t = this.ctx.store.table(this.ctx.table);
    const lines = new Map(this.fetched);
    for (const e of t.events) {
      const line = noticeLine(e);
      if (line !== undefined) lines.set(line.key, line);
    }
    for (const [station, list] of this.samples) for (const l of healthNotices(station, list)) lines.set(l.key, l);
    const all = [...lines.values()].sort((a, b) => b.at - a.at);
    const visible = all.filter((l) => this.shown.has(l.severity)).slice(0, MAX_LINES);
    const key = JSON.stringify([visible.map((l) => l.key), [...this.shown]]);
    if (key === this.key) return;
    this.key = key;
    const nameOf = namesOf(this.ctx.store, this.ctx.table);
    this.summary.textContent = `${visible.length} of ${all.length} notice${all.length === 1 ? '' : 's'} shown, kept since ${clock(this.since)} `
      + '(when this dashboard started; older ones are in the controller\'s log: zaptable log).';
    replace(this.list, visible.length === 0 ? h('p', { class: 'muted', 'data-testid': 'no-notices' }, all.length === 0 ? 'No notices so far.' : 'None of the kinds chosen.') :
        h('ol', { class: 'notice-lines', reversed: true }, visible.map((l) => h('li', { class: `notice sev-${l.severity}`, 'data-code': l.code, 'data-severity': l.severity },
          h('time', { datetime: new Date(l.at).toISOString() }, clock(l.at)), ' ',
          h('span', { class: `badge sev-${l.severity}` }, SEVERITIES.find((s) => s.id === l.severity)?.one ?? l.severity), ' ',
          h('strong', {}, l.code), ' ',
          l.player === undefined ? null : h('span', { class: 'who' }, `${nameOf(l.player)}: `),
          l.text,
          l.station === undefined || l.text.includes(l.station) ? null : h('span', { class: 'muted' }, ` (station ${l.station})`)))));
  }
}
