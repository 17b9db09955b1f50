/**
 * The host's controls of a buzzer table (`#/table/<id>/referee` or `#/table/<id>/host`): arm, reset, mark the
 * answer correct or wrong (naming the contestant after a tie), adjust scores, start a new session. Same token
 * handling as the game referee page (sessionStorage, this tab only); destructive controls (a reset that drops
 * an unmarked result, a new session) ask first. Keyboard: A arm, R reset, C correct, W wrong.
 */
import { confirmAction, sendRequest } from '../api.ts';
import { contestantInfo, delay, duration, entrants, LOCK_REASON } from '../buzzer-format.ts';
import { resultLine, tokenForm } from '../common.ts';
import { h, replace } from '../dom.ts';
import { gatedButton } from '../gated-button.ts';
import { keepingFocus } from '../keep-focus.ts';
import type { PageContext } from '../page.ts';
import type { BuzzerView } from '../types.ts';

const LIVE: readonly string[] = ['armed', 'reading', 'judging'];

function swatch(colour: string): HTMLElement {
  const el = h('span', { class: 'bz-swatch', 'aria-hidden': 'true' });
  el.style.background = colour;
  return el;
}

export class BuzzerHostPage {
  readonly element = h('div', { class: 'buzzer-host' });
  private readonly result = resultLine();
  private readonly live = h('div', { class: 'bz-host-live' });
  private readonly picker = h('select', { id: 'bz-pick', 'data-testid': 'tie-picker' });
  private lastSignature = '';
  private view: BuzzerView | undefined;
  private readonly onKey = (e: KeyboardEvent): void => {
    this.key(e);
  };

  constructor(private readonly ctx: PageContext) {
    this.element.append(
      h('h1', {}, `Host — ${ctx.store.bridgeEntry(ctx.table)?.name ?? ctx.table}`),
      tokenForm(),
      this.result.element,
      this.live,
    );
    document.addEventListener('keydown', this.onKey);
  }

  private async send(what: string, name: string, params: Record<string, unknown> = {}): Promise<boolean> {
    this.result.busy(what);
    const r = await sendRequest(this.ctx.table, name, params);
    this.result.show(what, r);
    return r.ok;
  }

  private arm(): void {
    void this.send('arm', 'buzzer/arm');
  }

  private reset(): void {
    void (async () => {
      const v = this.view;
      const unmarked = v !== undefined && v.phase === 'decided' && v.marks.length === 0;
      if (unmarked && !await confirmAction('Reset now? The result has not been marked: no points are given.')) return;
      await this.send('reset', 'buzzer/reset');
    })();
  }

  private mark(correct: boolean): void {
    const v = this.view;
    const params: Record<string, unknown> = { correct };
    if (v?.tie !== null && v?.tie !== undefined) params.contestant = this.picker.value;
    const who = typeof params.contestant === 'string' ? contestantInfo(v as BuzzerView, params.contestant).name : 'the winner';
    void this.send(`${correct ? 'correct' : 'wrong'} (${who})`, 'buzzer/mark', params);
  }

  private key(e: KeyboardEvent): void {
    if (e.ctrlKey || e.metaKey || e.altKey || e.repeat) return;
    const target = e.target as HTMLElement | null;
    if (target !== null && (target.closest('input, textarea, select, dialog') !== null)) return;
    const v = this.view;
    if (v === undefined) return;
    const k = e.key.toLowerCase();
    if (k === 'a' && !LIVE.includes(v.phase)) this.arm();
    else if (k === 'r') this.reset();
    else if (k === 'c' && v.phase === 'decided') this.mark(true);
    else if (k === 'w' && v.phase === 'decided') this.mark(false);
    else return;
    e.preventDefault();
  }

  private controls(v: BuzzerView): HTMLElement {
    const decided = v.phase === 'decided';
    const armable = !LIVE.includes(v.phase);
    const winner = v.winners.length === 1 && v.tie === null ? contestantInfo(v, v.winners[0] ?? '').name : null;
    const tieRow = v.tie === null || !decided ? null : h('div', { class: 'field inline bz-pick' },
      h('label', { for: 'bz-pick' }, 'Tie: who answers?'), this.picker);
    if (v.tie !== null) {
      const previous = this.picker.value;
      const ids = [...v.tie.members, ...v.ranking.map((r) => r.contestant).filter((c) => !(v.tie?.members ?? []).includes(c))];
      replace(this.picker, ids.map((id) => h('option', { value: id }, contestantInfo(v, id).name)));
      if (ids.includes(previous)) this.picker.value = previous;
    }
    const phaseName = v.phase === 'reading' ? 'reading the question' : v.phase;
    const arm = gatedButton(h('button', { type: 'button', class: 'primary', 'data-testid': 'arm', onclick: () => {
      this.arm();
    } }, 'Arm', h('kbd', {}, 'A')));
    arm.set(armable ? null : `already live (${phaseName}): reset first`);
    const markWhy = decided ? null : `only once a press has decided (now: ${phaseName})`;
    const correct = gatedButton(h('button', { type: 'button', class: 'ok', 'data-testid': 'correct', onclick: () => {
      this.mark(true);
    } }, `Correct${winner === null ? '' : ` — ${winner}`}`, h('kbd', {}, 'C')));
    const wrong = gatedButton(h('button', { type: 'button', class: 'danger', 'data-testid': 'wrong', onclick: () => {
      this.mark(false);
    } }, `Wrong${winner === null ? '' : ` — ${winner}`}`, h('kbd', {}, 'W')));
    correct.set(markWhy);
    wrong.set(markWhy);
    return h('section', { class: 'panel bz-controls', 'aria-labelledby': 'bz-controls-title' },
      h('h2', { id: 'bz-controls-title' }, 'Controls'),
      h('div', { class: 'row bz-big-buttons' }, arm.element,
        h('button', { type: 'button', class: 'secondary', 'data-testid': 'reset', onclick: () => {
          this.reset();
        } }, 'Reset', h('kbd', {}, 'R'))),
      tieRow,
      h('div', { class: 'row bz-big-buttons' }, correct.element, wrong.element));
  }

  private summary(v: BuzzerView): HTMLElement {
    const phase: Record<string, string> = {
      idle: 'not armed', reading: 'reading the question', armed: 'ARMED', judging: 'judging', decided: 'decided', closed: 'closed (answered)',
    };
    const result = v.tie !== null
      ? `TIE: ${v.tie.members.map((m) => contestantInfo(v, m).name).join(', ')} (${duration(v.tie.separationUs)} apart, ±${duration(v.tie.combinedUncertaintyUs)})`
      : v.winners.length > 0 ? `Winner: ${v.winners.map((w) => contestantInfo(v, w).name).join(', ')}` : '';
    return h('section', { class: 'panel bz-host-status', 'aria-label': 'Status' },
      h('p', { class: 'bz-host-phase', 'data-testid': 'host-phase', 'data-phase': v.phase },
        `Question ${v.question}${v.round > 1 ? `, round ${v.round}` : ''} · ${phase[v.phase] ?? v.phase}`),
      result === '' ? null : h('p', { class: 'bz-host-result', 'data-testid': 'host-result' }, result),
      v.disputed ? h('p', { class: 'warning', role: 'alert' }, '⚠ Disputed: a late-arriving press is earlier by its timestamp. Check the ranking.') : null,
      v.ranking.length === 0 ? null : h('ul', { class: 'bz-host-ranking' }, v.ranking.map((r) => h('li', {},
        `${r.tie ? `${r.place}=` : r.place}. ${r.name}${r.delayUs === 0 ? '' : ` ${delay(r.delayUs)}`} · reaction ${duration(r.reactionUs)}`))),
      v.lockouts.length === 0 ? null : h('p', { class: 'muted' }, 'Locked: ',
        v.lockouts.map((l) => `${contestantInfo(v, l.contestant).name} (${LOCK_REASON[l.reason] ?? l.reason})`).join(', ')));
  }

  private scores(v: BuzzerView): HTMLElement {
    const adjust = (id: string, name: string, delta: number): void => {
      void this.send(`${delta > 0 ? '+' : ''}${delta} for ${name}`, 'buzzer/score', { entrant: id, delta, reason: 'host adjustment' });
    };
    return h('section', { class: 'panel bz-host-scores', 'aria-label': 'Scores' },
      h('h2', {}, 'Scores'),
      h('table', { class: 'bz-host-score-table' }, h('tbody', {}, entrants(v).map((e) => h('tr', { 'data-entrant': e.id },
        h('th', { scope: 'row' }, swatch(e.colour), e.name),
        h('td', { class: 'num', 'data-testid': `host-score-${e.id}` }, String(v.scores[e.id] ?? 0)),
        h('td', {},
          h('button', { type: 'button', class: 'secondary', 'aria-label': `−1 for ${e.name}`, onclick: () => {
            adjust(e.id, e.name, -1);
          } }, '−1'), ' ',
          h('button', { type: 'button', class: 'secondary', 'aria-label': `+1 for ${e.name}`, onclick: () => {
            adjust(e.id, e.name, 1);
          } }, '+1')))))),
      h('button', {
        type: 'button', class: 'danger', 'data-testid': 'new-session',
        onclick: () => void (async () => {
          if (!await confirmAction('Start a new session? Scores and question numbers go back to zero (the log keeps the old session).')) return;
          await this.send('new session', 'buzzer/new-session');
        })(),
      }, 'New session'));
  }

  update(): void {
    const state = this.ctx.store.table(this.ctx.table).state;
    if (state?.mode !== 'buzzer') return;
    const signature = `${state.seq}|${state.at}`;
    if (signature === this.lastSignature) return;
    this.lastSignature = signature;
    const v = state.buzzer;
    this.view = v;
    this.element.dataset.phase = v.phase;
    keepingFocus(this.live, () => {
      replace(this.live, this.summary(v), this.controls(v), this.scores(v),
        h('p', { class: 'muted' }, h('a', { href: `#/table/${encodeURIComponent(this.ctx.table)}` }, 'Open the big screen'), ' (in another window or on the projector)'));
    });
  }

  destroy(): void {
    document.removeEventListener('keydown', this.onKey);
  }
}
