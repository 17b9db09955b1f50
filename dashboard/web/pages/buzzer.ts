/**
 * The buzzer big screen (`#/table/<id>` of a table in buzzer mode): drawn from the retained state alone
 * (docs/mqtt.md, "Buzzer mode") — the phase, the winner in very large type (or TIE with the names and the
 * figures), the ranking with each press's delay behind the winner and its reaction time from the moment the
 * buzzers went live, lockouts and false starts with a countdown to the end of a penalty, the scoreboard and a
 * histogram of reaction times per contestant. A beep on a live `WINNER` or `TIE` event only (never for a
 * snapshot after a reconnection), once the viewer has clicked (browser autoplay rules).
 *
 * Times on screen ("armed for 3.2 s", penalty countdowns) use this screen's clock against the controller's
 * wall-clock stamps: keep both clocks synchronised (NTP) for them to be right to the tenth of a second.
 */
import { percentile, sortedAscending } from '../../../controller/kernel/stats.ts';
import { beeper } from '../beeper.ts';
import { contestantInfo, delay, duration, entrants, LOCK_REASON, seconds, textOn } from '../buzzer-format.ts';
import { statusBadge } from '../common.ts';
import { h, replace, s } from '../dom.ts';
import type { PageContext } from '../page.ts';
import type { BuzzerState, BuzzerView } from '../types.ts';

const TICK_MS = 100;

function swatch(colour: string): HTMLElement {
  const el = h('span', { class: 'bz-swatch', 'aria-hidden': 'true' });
  el.style.background = colour;
  return el;
}

function nameWithColour(view: BuzzerView, id: string): HTMLElement {
  const c = contestantInfo(view, id);
  return h('span', { class: 'bz-name', 'data-contestant': id }, swatch(c.colour), c.name);
}

/** A span the page's clock keeps current: time since `sinceMs`, or left until `untilMs`. */
function since(ms: number): HTMLElement {
  return h('span', { class: 'bz-clock', 'data-since': ms }, seconds(Date.now() - ms));
}

function until(ms: number, over: string): HTMLElement {
  return h('span', { class: 'bz-clock', 'data-until': ms, 'data-over': over }, seconds(ms - Date.now()));
}

/** The phase in words, with its clock. */
function banner(view: BuzzerView): HTMLElement {
  let body: (HTMLElement | string)[];
  switch (view.phase) {
    case 'idle':
      body = [view.question === 0 ? 'Ready — waiting for the first question' : 'Not armed — waiting for the host'];
      break;
    case 'reading':
      body = ['Reading the question — buzzers live in ', view.liveAtMs === null ? '…' : until(view.liveAtMs, 'now')];
      break;
    case 'armed':
      body = ['ARMED — buzz now! ', view.liveAtMs === null ? '' : h('span', { class: 'muted-inline' }, 'live for ', since(view.liveAtMs))];
      break;
    case 'judging':
      body = ['Judging the presses…'];
      break;
    case 'decided':
      body = [view.tie === null ? 'Decided' : 'Tie — the host decides'];
      break;
    case 'closed':
      body = ['Answered correctly'];
      break;
  }
  return h('div', { class: `bz-banner phase-${view.phase}`, role: 'status', 'data-testid': 'phase-banner', 'data-phase': view.phase },
    h('span', { class: 'bz-question' }, view.question === 0 ? '' : `Question ${view.question}${view.round > 1 ? ` · round ${view.round}` : ''}`),
    h('span', { class: 'bz-phase-text' }, body));
}

/** The big block: winner, tie, armed, reading countdown or waiting. */
function hero(view: BuzzerView): HTMLElement {
  const decided = view.phase === 'decided' || view.phase === 'closed';
  if (decided && view.tie !== null) {
    const tie = view.tie;
    return h('section', { class: 'bz-hero tie', 'aria-label': 'Result', 'data-testid': 'hero', 'data-result': 'tie' },
      h('div', { class: 'bz-huge', 'data-testid': 'winner' }, 'TIE'),
      h('div', { class: 'bz-tied' }, tie.members.map((m) => nameWithColour(view, m))),
      h('p', { class: 'bz-detail', 'data-testid': 'tie-figures' },
        `${duration(tie.separationUs)} apart, ±${duration(tie.combinedUncertaintyUs)} combined: the timestamps cannot say who was first.`));
  }
  if (decided && view.winners.length > 0) {
    const id = view.winners[0] ?? '';
    const c = contestantInfo(view, id);
    const first = view.ranking.find((r) => r.contestant === id);
    const next = view.ranking.find((r) => r.place > 1);
    const team = c.team === null ? undefined : view.teams.find((t) => t.id === c.team);
    const mark = view.marks.findLast((m) => m.contestant === id);
    const block = h('div', { class: 'bz-winner-block' },
      h('div', { class: 'bz-huge', 'data-testid': 'winner', 'data-contestant': id }, c.name),
      team === undefined ? null : h('div', { class: 'bz-team' }, team.name));
    block.style.background = c.colour;
    block.style.color = textOn(c.colour);
    return h('section', { class: 'bz-hero winner', 'aria-label': 'Winner', 'data-testid': 'hero', 'data-result': 'winner' },
      block,
      h('p', { class: 'bz-detail' },
        first === undefined ? null : h('span', { 'data-testid': 'winner-reaction' }, `reaction ${duration(first.reactionUs)} `,
          h('span', { class: 'muted' }, `(±${duration(first.uncertaintyUs)})`)),
        next === undefined ? null : h('span', { 'data-testid': 'winner-margin' }, ` · ${duration(next.delayUs)} ahead of ${next.name}`),
        mark === undefined ? null : h('span', { class: `bz-mark ${mark.correct ? 'ok' : 'bad'}`, 'data-testid': 'winner-mark' },
          mark.correct ? ' ✓ correct' : ' ✗ wrong')),
      view.disputed ? h('p', { class: 'bz-dispute', role: 'alert' },
        '⚠ Disputed: a press that arrived late is earlier by its timestamp — check the ranking.') : null);
  }
  const [big, small] = ((): [string, HTMLElement | string] => {
    switch (view.phase) {
      case 'armed': return ['BUZZ!', view.liveAtMs === null ? '' : h('span', {}, 'armed for ', since(view.liveAtMs))];
      case 'reading': return ['Listen…', view.liveAtMs === null ? '' : h('span', {}, 'buzzers live in ', until(view.liveAtMs, 'now'))];
      case 'judging': return ['…', 'judging the presses'];
      case 'idle': case 'decided': case 'closed': return [view.question === 0 ? 'Ready' : 'Waiting', 'for the host to arm'];
    }
  })();
  return h('section', { class: `bz-hero waiting phase-${view.phase}`, 'aria-label': 'Status', 'data-testid': 'hero', 'data-result': 'none' },
    h('div', { class: 'bz-huge' }, big), h('p', { class: 'bz-detail' }, small));
}

function ranking(view: BuzzerView): HTMLElement {
  const marks = new Map(view.marks.map((m) => [m.contestant, m.correct]));
  return h('section', { class: 'panel bz-ranking', 'aria-label': 'Ranking' },
    h('h2', {}, 'Ranking'),
    view.ranking.length === 0 ? h('p', { class: 'muted' }, 'no press ranked yet') :
        h('table', { 'data-testid': 'ranking' },
          h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, '#'), h('th', { scope: 'col' }, 'contestant'),
            h('th', { scope: 'col' }, 'behind'), h('th', { scope: 'col' }, 'reaction'), h('th', { scope: 'col' }, '±'))),
          h('tbody', {}, view.ranking.map((r) => {
            const mark = marks.get(r.contestant);
            return h('tr', { class: r.place === 1 ? 'first' : '', 'data-contestant': r.contestant },
              h('td', { class: 'place' }, r.tie ? `${r.place}=` : String(r.place)),
              h('td', {}, nameWithColour(view, r.contestant),
                mark === undefined ? null : h('span', { class: `bz-mark ${mark ? 'ok' : 'bad'}` }, mark ? ' ✓' : ' ✗')),
              h('td', { class: 'num', 'data-testid': 'delay' }, delay(r.delayUs)),
              h('td', { class: 'num', 'data-testid': 'reaction' }, duration(r.reactionUs)),
              h('td', { class: 'num muted' }, duration(r.uncertaintyUs)));
          }))));
}

function lockouts(view: BuzzerView): HTMLElement {
  const early = new Map(view.falseStarts.map((f) => [f.contestant, f.earlyByUs]));
  const ids = [...new Set([...view.lockouts.map((l) => l.contestant), ...view.falseStarts.map((f) => f.contestant)])];
  return h('section', { class: 'panel bz-lockouts', 'aria-label': 'Locked out' },
    h('h2', {}, 'Locked out'),
    ids.length === 0 ? h('p', { class: 'muted' }, 'nobody') :
        h('ul', { 'data-testid': 'lockouts' }, ids.map((id) => {
          const lock = view.lockouts.find((l) => l.contestant === id);
          const e = early.get(id);
          const how = e === null || e === undefined ? ' (before the arm)' : `, ${duration(e)} early`;
          const falseStart = early.has(id) ? h('span', { class: 'bz-false-start' }, `false start${how}`) : null;
          let status: HTMLElement | string | null = null;
          if (lock !== undefined) {
            status = lock.untilMs === null
              ? h('span', { class: 'bz-reason' }, lock.reason === 'false-start' ? 'locked' : LOCK_REASON[lock.reason] ?? lock.reason)
              : h('span', { class: 'bz-reason' }, 'locked for ', until(lock.untilMs, 'penalty over'));
          }
          return h('li', { 'data-contestant': id, 'data-reason': lock?.reason ?? 'false-start' },
            nameWithColour(view, id), ' ', falseStart, falseStart !== null && status !== null ? ' · ' : '', status);
        })));
}

function scoreboard(view: BuzzerView): HTMLElement {
  const list = entrants(view).map((e, i) => ({ ...e, i, score: view.scores[e.id] ?? 0 }))
    .sort((a, b) => b.score - a.score || a.i - b.i);
  return h('section', { class: 'panel bz-scores', 'aria-label': 'Scoreboard' },
    h('h2', {}, 'Scores'),
    h('ol', { class: 'bz-score-list', 'data-testid': 'scoreboard' }, list.map((e) => h('li', { 'data-entrant': e.id },
      swatch(e.colour),
      h('span', { class: 'bz-score-name' }, e.name, e.members.length === 0 ? null : h('span', { class: 'bz-members' }, e.members.join(', '))),
      h('span', { class: 'bz-score', 'data-testid': `score-${e.id}` }, String(e.score))))));
}

const BIN_MS = 50;

/** Reaction times per contestant: one row of bars each (50 ms bins), on one shared axis. */
function histogram(view: BuzzerView): HTMLElement {
  const rows = view.contestants.map((c) => ({ c, ms: (view.reactions[c.id] ?? []).map((us) => us / 1000) }));
  const all = rows.flatMap((r) => r.ms);
  const section = h('section', { class: 'panel bz-histogram', 'aria-label': 'Reaction times' }, h('h2', {}, 'Reaction times'));
  if (all.length === 0) {
    section.append(h('p', { class: 'muted' }, 'no reaction times yet'));
    return section;
  }
  const maxMs = Math.min(2000, Math.max(1000, Math.ceil(Math.max(...all) / 250) * 250));
  const bins = Math.ceil(maxMs / BIN_MS);
  const width = 400;
  const height = 44;
  const list = h('div', { class: 'bz-hist-rows', 'data-testid': 'histogram' });
  for (const { c, ms } of rows) {
    const counts = Array.from({ length: bins }, () => 0);
    for (const x of ms) {
      const i = Math.min(bins - 1, Math.floor(x / BIN_MS));
      counts[i] = (counts[i] ?? 0) + 1;
    }
    const top = Math.max(1, ...counts);
    const colour = contestantInfo(view, c.id).colour;
    const median = ms.length === 0 ? null : percentile(sortedAscending(ms), 50);
    const svg = s('svg', { viewBox: `0 0 ${width} ${height}`, class: 'bz-hist', role: 'img', preserveAspectRatio: 'none',
      'aria-label': `${c.name}: ${ms.length} reaction time${ms.length === 1 ? '' : 's'}${median === null ? '' : `, median ${median.toFixed(0)} ms`}` },
    s('line', { x1: 0, y1: height - 0.5, x2: width, y2: height - 0.5, class: 'bz-axis' }),
    counts.map((n, i) => {
      const bar = (n / top) * (height - 4);
      return n === 0 ? null : s('rect', { x: (i * width) / bins + 0.5, width: width / bins - 1, y: height - bar, height: bar, fill: colour },
        s('title', {}, `${i * BIN_MS}–${(i + 1) * BIN_MS} ms: ${n}`));
    }));
    list.append(h('div', { class: 'bz-hist-row', 'data-contestant': c.id },
      h('span', { class: 'bz-hist-label' }, swatch(colour), c.name,
        h('span', { class: 'muted' }, ms.length === 0 ? ' —' : ` n=${ms.length}, median ${median?.toFixed(0) ?? '—'} ms`)),
      svg));
  }
  const ticks = [0, maxMs / 4, maxMs / 2, (3 * maxMs) / 4, maxMs];
  list.append(h('div', { class: 'bz-hist-row axis' }, h('span', {}),
    h('div', { class: 'bz-ticks' }, ticks.map((t) => h('span', {}, t >= 1000 ? `${(t / 1000).toFixed(t % 1000 === 0 ? 0 : 2)} s` : `${t} ms`)))));
  section.append(list);
  return section;
}

export class BuzzerPage {
  readonly element = h('div', { class: 'buzzer-screen' });
  private readonly content = h('div', { class: 'bz-content' });
  private readonly soundButton = h('button', { type: 'button', class: 'secondary bz-sound', 'data-testid': 'sound' });
  private signature = '';
  private lastEventSeq: number | undefined;
  private readonly timer: ReturnType<typeof setInterval>;
  private readonly offSound: () => void;

  constructor(private readonly ctx: PageContext) {
    const sound = beeper();
    this.soundButton.addEventListener('click', () => {
      sound.enable();
    });
    this.offSound = sound.onChange(() => {
      this.showSound();
    });
    this.showSound();
    const full = h('button', {
      type: 'button', class: 'secondary',
      onclick: () => {
        if (document.fullscreenElement === null) void document.documentElement.requestFullscreen().catch(() => undefined);
        else void document.exitFullscreen();
      },
    }, 'Full screen');
    this.element.append(h('div', { class: 'bz-tools' }, this.soundButton, full), this.content);
    this.timer = setInterval(() => {
      this.tick();
    }, TICK_MS);
  }

  private showSound(): void {
    const b = beeper();
    this.soundButton.textContent = b.enabled ? 'Sound on' : 'Sound off: click anywhere to enable';
    this.soundButton.setAttribute('data-enabled', String(b.enabled));
    this.soundButton.setAttribute('data-played', String(b.played));
    this.soundButton.setAttribute('data-missed', String(b.missed));
  }

  /** Keeps the clocks ("armed for", countdowns) current between state changes. */
  private tick(): void {
    const now = Date.now();
    for (const el of this.element.querySelectorAll<HTMLElement>('[data-since]')) el.textContent = seconds(now - Number(el.dataset.since));
    for (const el of this.element.querySelectorAll<HTMLElement>('[data-until]')) {
      const left = Number(el.dataset.until) - now;
      el.textContent = left > 0 ? seconds(left) : el.dataset.over ?? '';
      el.classList.toggle('over', left <= 0);
    }
  }

  /** Beeps for WINNER and TIE events that arrived live (not those of a snapshot, not those seen before). */
  private sound(): void {
    const t = this.ctx.store.table(this.ctx.table);
    const newest = t.events.at(-1)?.seq ?? 0;
    if (this.lastEventSeq === undefined) {
      this.lastEventSeq = newest;
      return;
    }
    for (const e of t.events) {
      if (e.seq <= this.lastEventSeq || !t.liveSeqs.has(e.seq)) continue;
      if (e.type === 'WINNER') beeper().beep('winner');
      if (e.type === 'TIE') beeper().beep('tie');
    }
    this.lastEventSeq = Math.max(this.lastEventSeq, newest);
  }

  update(): void {
    const t = this.ctx.store.table(this.ctx.table);
    const state = t.state;
    if (state?.mode !== 'buzzer') return;
    this.sound();
    const signature = `${state.seq}|${state.at}|${t.status}`;
    if (signature === this.signature) return;
    this.signature = signature;
    this.render(state, t.status);
  }

  private render(state: BuzzerState, status: Parameters<typeof statusBadge>[0]): void {
    const view = state.buzzer;
    const name = this.ctx.store.bridgeEntry(this.ctx.table)?.name ?? this.ctx.table;
    this.element.dataset.phase = view.phase;
    replace(this.content,
      h('header', { class: 'bz-head' }, h('h1', {}, name), statusBadge(status)),
      banner(view),
      h('div', { class: 'bz-grid' },
        hero(view),
        scoreboard(view),
        ranking(view),
        lockouts(view),
        histogram(view)));
    this.tick();
  }

  destroy(): void {
    clearInterval(this.timer);
    this.offSound();
  }
}
