/**
 * `#/table/<id>/record[/<game>]`: the game record, from the controller's event log (not the 30 events a page
 * holds): the table's past games, a summary per game (winners, rounds, duration, per-player figures), a chart
 * over time with its numbers as a table, the move list with times and intervals, stepping back through the
 * public states and a round replay with play/pause and speed, and the downloads — the public record for
 * everyone, the full action log (`zaptable replay FILE`) with the dashboard token only (it holds the hands).
 *
 * Everything shown is what a spectator saw: public events, public refusals, public views
 * (docs/mqtt.md, "The game record"). Game-specific parts come from the game's `GameUi.record` (record-ui.ts).
 */
import uPlot from 'uplot';
import './record.css';
import { getToken } from '../api.ts';
import { describeEvent, tokenForm } from '../common.ts';
import { clock, h, replace } from '../dom.ts';
import { gatedButton } from '../gated-button.ts';
import { gameUi } from '../games/registry.ts';
import type { RecordSeries, RecordUi } from '../games/record-ui.ts';
import { namesOf, type NameOf } from '../names.ts';
import type { PageContext } from '../page.ts';
import type { PublicEventJson } from '../types.ts';
import type { PublicGameRecord, RecordedGame, RecordStep } from '../../../controller/rules/game-record.ts';

/** Line colours with a dash pattern each, so the lines differ without colour too; the legend names them. */
const PALETTE = ['#5aa9ff', '#ff6b7a', '#3ddc84', '#ffcc33', '#c792ea', '#e0e0e0', '#ff9f43'];
const DASHES = [[], [8, 4], [2, 3], [10, 3, 2, 3], [4, 4], [1, 2], [12, 6]];
const SPEEDS = [0.5, 1, 2, 4, 8];
/** A replay waits the recorded interval divided by the speed, within these bounds (ms). */
const MIN_WAIT = 150;
const MAX_WAIT = 2500;

interface Loaded {
  readonly record: PublicGameRecord;
  readonly ui: RecordUi | undefined;
  /** The public view after the last step (labels and the chart read it). */
  readonly lastView: unknown;
}

type Answer<T> = { ok: true; body: T } | { ok: false; code: string; message: string };

async function getJson<T>(url: string, token?: string): Promise<Answer<T>> {
  try {
    const response = await fetch(url, token === undefined ? {} : { headers: { authorization: `Bearer ${token}` } });
    const body = await response.json().catch(() => null) as (T & { code?: string; message?: string }) | null;
    if (!response.ok || body === null) return { ok: false, code: body?.code ?? `HTTP_${response.status}`, message: body?.message ?? response.statusText };
    return { ok: true, body };
  } catch (error) {
    return { ok: false, code: 'NETWORK', message: error instanceof Error ? error.message : 'network error' };
  }
}

const seconds = (ms: number): string => (ms < 60_000 ? `${(ms / 1000).toFixed(1)} s` : `${Math.floor(ms / 60_000)} min ${Math.round((ms % 60_000) / 1000)} s`);

/** Which round a step belongs to: the rounds completed before it, plus one. */
const roundOf = (steps: readonly RecordStep[], i: number): number => (steps[i - 1]?.rounds ?? steps[0]?.rounds ?? 0) + 1;

export class RecordPage {
  readonly element = h('div', { class: 'record' });
  private readonly api: string;
  private readonly title = h('h1', {});
  private readonly status = h('p', { class: 'record-status', role: 'status', 'data-testid': 'record-status' });
  private readonly gamesHost = h('section', { class: 'panel', 'aria-labelledby': 'record-games-h' });
  private readonly summaryHost = h('section', { class: 'panel record-summary', 'aria-labelledby': 'record-summary-h', 'data-testid': 'record-summary' });
  private readonly chartHost = h('section', { class: 'panel record-chart', 'aria-labelledby': 'record-chart-h' });
  private readonly stepHost = h('div', { class: 'record-step', 'data-testid': 'record-step', 'aria-live': 'polite' });
  private readonly movesHost = h('ol', { class: 'record-moves', 'data-testid': 'record-moves', start: 0 });
  private readonly stepLabel = h('span', { class: 'record-step-label' });
  private readonly slider = h('input', { type: 'range', min: 0, max: 0, value: 0, id: 'record-slider', 'aria-label': 'Step' });
  private readonly playButton = h('button', { type: 'button', 'data-testid': 'record-play' }, 'Play');
  private readonly speed = h('select', { id: 'record-speed' }, SPEEDS.map((s) => h('option', { value: String(s), selected: s === 1 ? '' : null }, `${s}×`)));
  private readonly roundSelect = h('select', { id: 'record-round' });
  private readonly download = gatedButton(h('button', { type: 'button', 'data-testid': 'record-download' }, 'Download the action log'));
  private readonly downloadAnswer = h('p', { class: 'record-download-answer', role: 'status', 'data-testid': 'record-download-answer' });
  private readonly publicLink = h('a', { 'data-testid': 'record-public-link' }, 'Download the public record (JSON)');
  private loaded: Loaded | undefined;
  private step = 0;
  private timer: number | undefined;
  /** Plays to this step (a round replay) or to the end. */
  private playUntil: number | undefined;
  private readonly views = new Map<string, unknown>();
  private plot: uPlot | undefined;
  private seenSeq: number | undefined;
  private reloadTimer: number | undefined;
  private asked = 0;
  private readonly body = h('div', { class: 'record-body' });

  constructor(private readonly ctx: PageContext, private readonly gameId: number | undefined) {
    this.api = `/api/tables/${encodeURIComponent(ctx.table)}`;
    const back = h('button', { type: 'button' }, '◀ Back');
    const forward = h('button', { type: 'button' }, 'Forward ▶');
    const first = h('button', { type: 'button' }, '◀◀ Start');
    const last = h('button', { type: 'button' }, 'End ▶▶');
    const replayRound = h('button', { type: 'button', 'data-testid': 'record-replay-round' }, 'Replay round');
    back.addEventListener('click', () => {
      this.go(this.step - 1);
    });
    forward.addEventListener('click', () => {
      this.go(this.step + 1);
    });
    first.addEventListener('click', () => {
      this.go(0);
    });
    last.addEventListener('click', () => {
      this.go((this.loaded?.record.steps.length ?? 1) - 1);
    });
    this.slider.addEventListener('input', () => {
      this.go(Number(this.slider.value));
    });
    this.playButton.addEventListener('click', () => {
      if (this.timer === undefined) this.play();
      else this.pause();
    });
    replayRound.addEventListener('click', () => {
      this.replayRound(Number(this.roundSelect.value));
    });
    this.download.button.addEventListener('click', () => {
      void this.downloadLog();
    });
    // The token entered in the form below ("Use token") enables the download at once.
    this.element.addEventListener('submit', () => {
      this.gateDownload();
    });
    // The record arrives after the page mounts (games, record, the last step's view: three answers from the
    // table's log). Its sections are laid out hidden and shown at once when the first answer is drawn, so
    // nothing on screen moves under a finger while they fill (layout shift, dashboard/README.md).
    this.body.style.visibility = 'hidden';
    this.body.append(
      this.gamesHost,
      this.summaryHost,
      this.chartHost,
      h('section', { class: 'panel record-stepper', 'aria-labelledby': 'record-stepper-h' },
        h('h2', { id: 'record-stepper-h' }, 'Step through the game'),
        h('div', { class: 'record-controls' }, first, back, this.playButton, forward, last,
          h('label', { for: 'record-speed' }, 'Speed '), this.speed),
        h('div', { class: 'record-controls' }, h('label', { for: 'record-slider' }, 'Step '), this.slider, ' ', this.stepLabel),
        h('div', { class: 'record-controls' }, h('label', { for: 'record-round' }, 'Round '), this.roundSelect, replayRound),
        this.stepHost),
      h('section', { class: 'panel', 'aria-labelledby': 'record-moves-h' },
        h('h2', { id: 'record-moves-h' }, 'Moves'),
        h('p', { class: 'muted' }, 'Every step as the table announced it, with the time it was logged and the interval since the step before.'),
        this.movesHost),
      h('section', { class: 'panel', 'aria-labelledby': 'record-download-h' },
        h('h2', { id: 'record-download-h' }, 'Downloads'),
        h('p', {}, this.publicLink, ': the moves and the standing as shown here, for everyone.'),
        h('p', {}, 'The action log is the game as the controller logged it — every hand dealt and every barrel placed — '
          + 'the file `zaptable replay FILE` reads to settle a dispute. It needs the dashboard token.'),
        tokenForm(), this.download.element, this.downloadAnswer),
    );
    this.element.append(this.title, this.status, this.body);
    this.gateDownload();
    void this.load();
  }

  update(): void {
    // The table's name arrives with `bridge/tables`, maybe after the page opened.
    const title = `Game record — ${this.ctx.store.bridgeEntry(this.ctx.table)?.name ?? this.ctx.table}`;
    if (this.title.textContent !== title) this.title.textContent = title;
    // A running game grows: reload (at most every 2 s) when the table's seq moves on.
    const seq = this.ctx.store.table(this.ctx.table).state?.seq;
    if (seq === undefined || seq === this.seenSeq) return;
    const firstSeen = this.seenSeq === undefined;
    this.seenSeq = seq;
    const ended = this.loaded === undefined || this.loaded.record.game.endedAtMs !== null;
    if (firstSeen || ended || this.reloadTimer !== undefined) return;
    this.reloadTimer = window.setTimeout(() => {
      this.reloadTimer = undefined;
      void this.load();
    }, 2000);
  }

  destroy(): void {
    this.pause();
    window.clearTimeout(this.reloadTimer);
    this.plot?.destroy();
  }

  private get nameOf(): NameOf {
    return namesOf(this.ctx.store, this.ctx.table);
  }

  private async load(): Promise<void> {
    const mine = ++this.asked;
    const games = await getJson<{ games: RecordedGame[] }>(`${this.api}/games`);
    if (mine !== this.asked) return;
    if (!games.ok) {
      this.status.textContent = `The table's games could not be read: ${games.code} — ${games.message}`;
      return;
    }
    const list = games.body.games;
    const chosen = this.gameId ?? list[0]?.id;
    this.renderGames(list, chosen);
    if (chosen === undefined) {
      this.status.textContent = 'No game in this table\'s log yet.';
      return;
    }
    const record = await getJson<PublicGameRecord>(`${this.api}/games/${chosen}/record`);
    if (mine !== this.asked) return;
    if (!record.ok) {
      this.status.textContent = `Game ${chosen} could not be read: ${record.code} — ${record.message}`;
      return;
    }
    const steps = record.body.steps;
    const lastStep = steps.length - 1;
    const lastView = steps[lastStep] === undefined ? undefined : await this.viewOf(record.body.game.id, steps[lastStep]);
    if (mine !== this.asked) return;
    const wasAtEnd = this.loaded === undefined || this.step === this.loaded.record.steps.length - 1;
    this.loaded = { record: record.body, ui: gameUi(record.body.game.game)?.record, lastView };
    this.status.textContent = '';
    this.publicLink.setAttribute('href', `${this.api}/games/${chosen}/record`);
    this.publicLink.setAttribute('download', `${this.ctx.table}-game-${chosen}-record.json`);
    this.renderSummary();
    this.renderChart();
    this.renderMoves();
    this.renderRounds();
    this.slider.max = String(lastStep);
    // A reload of a running game keeps the step someone went back to; at the end it follows the game.
    this.go(wasAtEnd ? lastStep : Math.min(this.step, lastStep), false);
    this.body.style.visibility = '';
  }

  /**
   * The public view after a step, kept by the step's log seq: an undo takes a step away and a new action at the
   * same index has a new seq, so a kept view is never of another action.
   */
  private async viewOf(game: number, step: RecordStep): Promise<unknown> {
    const key = `${game}:${step.step}:${step.seq ?? 'setup'}`;
    if (this.views.has(key)) return this.views.get(key);
    const answer = await getJson<{ view: unknown }>(`${this.api}/games/${game}/steps/${step.step}`);
    if (!answer.ok) return undefined;
    this.views.set(key, answer.body.view);
    return answer.body.view;
  }

  private renderGames(list: readonly RecordedGame[], chosen: number | undefined): void {
    const nameOf = this.nameOf;
    const base = `#/table/${encodeURIComponent(this.ctx.table)}/record`;
    replace(this.gamesHost, h('h2', { id: 'record-games-h' }, 'Games at this table'),
      list.length === 0 ? h('p', { class: 'muted' }, 'none in the log') :
          h('ol', { class: 'record-games', 'data-testid': 'record-games' }, list.map((g) => h('li', {},
            h('a', { href: `${base}/${g.id}`, 'aria-current': g.id === chosen ? 'page' : null },
              `Game ${g.id}: ${gameUi(g.game)?.title ?? g.game}, ${g.players.map(nameOf).join(', ')}`),
            ` — started ${new Date(g.startedAtMs).toLocaleString()}, `,
            g.endedAtMs === null ? 'running' : (g.result?.winners.length ?? 0) > 0 ? `won by ${(g.result?.winners ?? []).map(nameOf).join(' and ')}` : 'ended'))));
  }

  private renderSummary(): void {
    const loaded = this.loaded;
    if (loaded === undefined) return;
    const { game, steps } = loaded.record;
    const nameOf = this.nameOf;
    const end = steps[steps.length - 1];
    const label = loaded.ui?.scoreLabel(loaded.lastView) ?? 'score';
    const endMs = game.endedAtMs ?? end?.at ?? game.startedAtMs;
    const winners = game.result?.winners ?? [];
    const moves = new Map<string, number>();
    for (const step of steps.slice(1)) {
      const who = (step.events[0] as { player?: unknown } | undefined)?.player;
      if (typeof who === 'string') moves.set(who, (moves.get(who) ?? 0) + 1);
    }
    replace(this.summaryHost, h('h2', { id: 'record-summary-h' }, `Summary of game ${game.id}`),
      h('ul', { class: 'record-facts' },
        h('li', { 'data-testid': 'record-winner' }, game.endedAtMs === null ? 'Still running.'
          : winners.length === 0 ? 'Ended without a winner.' : `Won by ${winners.map(nameOf).join(' and ')}.`),
        h('li', {}, `${gameUi(game.game)?.title ?? game.game}, ${end?.rounds ?? 0} round${end?.rounds === 1 ? '' : 's'} completed, ${steps.length - 1} moves.`),
        h('li', {}, `Started ${new Date(game.startedAtMs).toLocaleString()}; ${game.endedAtMs === null ? 'running for' : 'lasted'} ${seconds(endMs - game.startedAtMs)}.`)),
      h('table', { class: 'record-standing' },
        h('caption', {}, game.endedAtMs === null ? 'Standing now' : 'Final standing'),
        h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, 'player'), h('th', { scope: 'col' }, label), h('th', { scope: 'col' }, 'moves'))),
        h('tbody', {}, game.players.map((p) => h('tr', {},
          h('th', { scope: 'row' }, `${nameOf(p)}${winners.includes(p) ? ' (winner)' : ''}`),
          h('td', {}, String(end?.scores[p] ?? 0)), h('td', {}, String(moves.get(p) ?? 0)))))));
  }

  private renderChart(): void {
    const loaded = this.loaded;
    if (loaded === undefined) return;
    const { game, steps } = loaded.record;
    const series: RecordSeries | undefined = loaded.ui?.chart(steps, game.players, loaded.lastView);
    this.plot?.destroy();
    this.plot = undefined;
    if (series === undefined) {
      replace(this.chartHost, h('h2', { id: 'record-chart-h' }, 'Over time'), h('p', { class: 'muted' }, 'Not enough moves to draw yet.'));
      return;
    }
    const nameOf = this.nameOf;
    const box = h('div', { class: 'chart record-plot', 'aria-hidden': 'true' });
    const last = series.xs.length - 1;
    const words = `${series.title}: ${game.players.map((p) => `${nameOf(p)} ${series.ys[p]?.[last] ?? 0}`).join(', ')} ${series.y} at the end.`;
    // The chart is a picture; its numbers are the table under it (a text alternative for screen readers).
    const table = h('table', { class: 'record-series', 'data-testid': 'record-series' },
      h('caption', {}, `${series.title} (${series.y})`),
      h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, series.x), game.players.map((p) => h('th', { scope: 'col' }, nameOf(p))))),
      h('tbody', {}, series.xs.map((x, i) => h('tr', {}, h('th', { scope: 'row' }, String(x)),
        game.players.map((p) => h('td', {}, String(series.ys[p]?.[i] ?? '')))))));
    replace(this.chartHost, h('h2', { id: 'record-chart-h' }, series.title),
      h('p', { 'data-testid': 'record-chart-words' }, words), box,
      h('details', {}, h('summary', {}, 'The chart\'s numbers as a table'), h('div', { class: 'table-scroll', tabindex: 0, role: 'region', 'aria-label': 'Chart numbers' }, table)));
    const width = Math.max(280, Math.min(900, this.chartHost.clientWidth - 24));
    const data: uPlot.AlignedData = [[...series.xs], ...game.players.map((p) => [...(series.ys[p] ?? [])])];
    this.plot = new uPlot({
      width, height: 240,
      scales: { x: { time: false } },
      axes: [{ stroke: '#a9b0bc', label: series.x }, { stroke: '#a9b0bc', label: series.y }],
      series: [{ label: series.x }, ...game.players.map((p, i) => ({
        label: nameOf(p), stroke: PALETTE[i % PALETTE.length] ?? '#000', dash: DASHES[i % DASHES.length] ?? [], width: 2,
        ...(series.x === 'round' ? { points: { show: true } } : { paths: uPlot.paths.stepped?.({ align: 1 }) }),
      }))],
    }, data, box);
  }

  private line(step: RecordStep): string {
    const ui = this.loaded === undefined ? undefined : gameUi(this.loaded.record.game.game);
    const nameOf = this.nameOf;
    const texts = step.events.map((e) => {
      const event = { seq: 0, at: step.at, ...e } as PublicEventJson;
      return ui?.describeEvent === undefined ? describeEvent(event, nameOf) : ui.describeEvent(event, nameOf);
    });
    if (texts.length > 0) return texts.join('; ');
    return step.action === null ? 'Set up' : `${step.action} (nothing a spectator could see)`;
  }

  private renderMoves(): void {
    const loaded = this.loaded;
    if (loaded === undefined) return;
    const { steps, refusals, corrections } = loaded.record;
    // Refusals and undos between the steps, as they were announced, in time order.
    const byStep = new Map<number, { seq: number; text: string }[]>();
    const between = (afterStep: number, seq: number, text: string): void => {
      byStep.set(afterStep, [...(byStep.get(afterStep) ?? []), { seq, text }].sort((a, b) => a.seq - b.seq));
    };
    for (const r of refusals) between(r.afterStep, r.seq, `${clock(r.at)} ${r.action} refused (${r.code}): ${r.message}`);
    for (const c of corrections) between(c.afterStep, c.seq, `${clock(c.at)} the referee took back a ${c.undone}: ${c.reason}`);
    replace(this.movesHost, steps.map((step, i) => {
      const gap = i === 0 ? '' : ` (+${seconds(step.at - (steps[i - 1]?.at ?? step.at))})`;
      const button = h('button', { type: 'button', class: 'linklike', 'data-step': i }, i === 0 ? 'Start' : `${i}.`);
      button.addEventListener('click', () => {
        this.pause();
        this.go(i);
      });
      return h('li', { 'data-step': i, value: i },
        button, ' ', h('time', { datetime: new Date(step.at).toISOString() }, clock(step.at)), gap, ' ', this.line(step),
        (byStep.get(i) ?? []).map((r) => h('div', { class: 'record-refusal' }, r.text)));
    }));
  }

  private renderRounds(): void {
    const steps = this.loaded?.record.steps ?? [];
    const rounds = Math.max(1, roundOf(steps, steps.length - 1));
    const chosen = this.roundSelect.value;
    replace(this.roundSelect, Array.from({ length: rounds }, (_, i) => h('option', { value: String(i + 1) }, `round ${i + 1}`)));
    if (chosen !== '' && Number(chosen) <= rounds) this.roundSelect.value = chosen;
  }

  /** Shows the public state after step `i` (the view asked from the table's log). */
  private go(i: number, scroll = true): void {
    const loaded = this.loaded;
    if (loaded === undefined) return;
    const { game, steps } = loaded.record;
    const step = steps[Math.max(0, Math.min(steps.length - 1, i))];
    if (step === undefined) return;
    this.step = step.step;
    this.slider.value = String(step.step);
    this.stepLabel.textContent = `${step.step} of ${steps.length - 1}`;
    for (const li of this.movesHost.children) {
      const current = Number((li as HTMLElement).dataset.step) === step.step;
      if (current) li.setAttribute('aria-current', 'step');
      else li.removeAttribute('aria-current');
      if (current && scroll) li.scrollIntoView({ block: 'nearest' });
    }
    const mine = step.step;
    void this.viewOf(game.id, step).then((view) => {
      if (this.step !== mine || this.loaded !== loaded) return;
      const nameOf = this.nameOf;
      const label = loaded.ui?.scoreLabel(view ?? loaded.lastView) ?? 'score';
      replace(this.stepHost,
        h('h3', {}, step.step === 0 ? `The start (${clock(step.at)})` : `After move ${step.step}, round ${roundOf(steps, step.step)} (${clock(step.at)})`),
        h('p', { 'data-testid': 'record-step-events' }, this.line(step)),
        view === undefined || loaded.ui === undefined ? h('p', { class: 'muted' }, 'The state of this step could not be read.') : loaded.ui.stepView(view, nameOf),
        h('p', { class: 'muted' }, `${label}: ${game.players.map((p) => `${nameOf(p)} ${step.scores[p] ?? 0}`).join(', ')}`));
    });
  }

  private play(): void {
    const steps = this.loaded?.record.steps ?? [];
    if (this.step >= (this.playUntil ?? steps.length - 1)) this.playUntil = undefined;
    if (this.step >= steps.length - 1) this.go(0);
    this.playButton.textContent = 'Pause';
    const tick = (): void => {
      const until = this.playUntil ?? steps.length - 1;
      if (this.step >= until) {
        this.pause();
        return;
      }
      const now = steps[this.step];
      const next = steps[this.step + 1];
      const wait = Math.max(MIN_WAIT, Math.min(MAX_WAIT, (next?.at ?? 0) - (now?.at ?? 0))) / Number(this.speed.value);
      this.timer = window.setTimeout(() => {
        this.go(this.step + 1);
        tick();
      }, wait);
    };
    tick();
  }

  private pause(): void {
    window.clearTimeout(this.timer);
    this.timer = undefined;
    this.playUntil = undefined;
    this.playButton.textContent = 'Play';
  }

  /** Plays round `round` from its first step to the step that ended it (or the last one). */
  private replayRound(round: number): void {
    const steps = this.loaded?.record.steps ?? [];
    const first = steps.findIndex((_, i) => roundOf(steps, i) === round);
    if (first < 0) return;
    let end = first;
    while (end + 1 < steps.length && roundOf(steps, end + 1) === round) end += 1;
    this.pause();
    this.go(first);
    this.playUntil = end;
    this.play();
  }

  private gateDownload(): void {
    this.download.set(getToken() === '' ? 'needs the dashboard token: the action log holds every hand and barrel' : null);
  }

  private async downloadLog(): Promise<void> {
    const game = this.loaded?.record.game;
    if (game === undefined) return;
    this.downloadAnswer.textContent = 'Asking the table…';
    const answer = await getJson<object>(`${this.api}/games/${game.id}/actions.json`, getToken());
    if (!answer.ok) {
      this.downloadAnswer.textContent = answer.code === 'UNAUTHORIZED' ? 'The dashboard refused the token: no action log.' : `No action log: ${answer.code} — ${answer.message}`;
      return;
    }
    const blob = new Blob([`${JSON.stringify(answer.body, null, 2)}\n`], { type: 'application/json' });
    const url = URL.createObjectURL(blob);
    const a = h('a', { href: url, download: `${this.ctx.table}-game-${game.id}.json` });
    document.body.append(a);
    a.click();
    a.remove();
    window.setTimeout(() => {
      URL.revokeObjectURL(url);
    }, 10_000);
    this.downloadAnswer.textContent = `Saved ${this.ctx.table}-game-${game.id}.json: check it with zaptable replay ${this.ctx.table}-game-${game.id}.json`;
  }
}
