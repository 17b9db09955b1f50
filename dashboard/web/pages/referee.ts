/**
 * Referee controls. The token is kept in sessionStorage (this tab only). Every control is a request to the
 * table through the dashboard (`api.ts`); destructive ones (new game, undo, correct, remove a station) ask for
 * confirmation first. The answer (ok, or the code and message) is shown in the status line.
 *
 * Live updates change the page in place: every control is built once and only its state (enabled, the reason
 * it is not, the texts beside it) follows the table, so chosen dice, ticked carry boxes, typed reasons and the
 * keyboard focus survive every update. Only the parts without inputs (dice faces, seats, events) are redrawn,
 * and the move list only when the moves on offer change (its carry boxes keep their ticks).
 */
import { confirmAction, sendRequest } from '../api.ts';
import { COLOUR_NAME, pieceLabel } from '../board-svg.ts';
import { eventList, field, resultLine, tokenForm } from '../common.ts';
import { h, replace } from '../dom.ts';
import type { GamePart } from '../games/game-ui.ts';
import { gameUi, gameUis } from '../games/registry.ts';
import { gatedButton, type GatedButton } from '../gated-button.ts';
import type { PageContext } from '../page.ts';
import { tieSentence } from '../tie-text.ts';
import type { MoveOption, ZappView, ZipZapPublicView } from '../types.ts';
import { PHASE_TEXT, ZappBoardPanel, zappHeader, zappMoves, zappSeats } from '../games/zapp-zerapp/page.ts';

const COLOURS = ['RED', 'GREEN', 'BLUE', 'YELLOW'] as const;
const SEATS = 6;

function options(values: readonly string[], labels?: readonly string[]): HTMLOptionElement[] {
  return values.map((v, i) => h('option', { value: v }, labels?.[i] ?? v));
}

/** What the new-game form offers before anyone edits it: the table's own game and players. */
interface Suggestion {
  readonly game: string;
  readonly variant?: string;
  readonly players: readonly string[];
}

/** The Zapp Zerapp controls, built once per game kind and updated in place. */
class ZappControls {
  readonly element: HTMLElement;
  private readonly header = h('div', {});
  private readonly seats = h('div', {});
  private readonly movesHost = h('div', {});
  private readonly roll: GatedButton;
  private readonly enter: GatedButton;
  private readonly reveal: GatedButton;
  private movesKey = '';

  constructor(private readonly send: (what: string, name: string, params: Record<string, unknown>) => Promise<boolean>,
    private readonly board: ZappBoardPanel) {
    const d1 = h('select', {}, options(['1', '2', '3', '4', '5', '6']));
    const d2 = h('select', {}, options(['1', '2', '3', '4', '5', '6']));
    this.roll = gatedButton(h('button', { type: 'button', 'data-testid': 'roll', onclick: () => void this.send('roll', 'roll', {}) }, 'Roll the dice'));
    this.enter = gatedButton(h('button', { type: 'submit' }, 'Enter dice'));
    this.reveal = gatedButton(h('button', { type: 'button', onclick: () => void this.send('reveal', 'action', { action: { type: 'reveal' } }) }, 'Reveal now'));
    const dice = h('section', { class: 'panel', 'aria-labelledby': 'ref-dice' }, h('h2', { id: 'ref-dice' }, 'Dice'),
      h('div', { class: 'row' }, this.roll.element),
      h('form', {
        class: 'inline',
        onsubmit: (e: Event) => {
          e.preventDefault();
          void this.send('enter dice', 'enter-dice', { d1: Number(d1.value), d2: Number(d2.value) });
        },
      }, field('First die', d1, 'd1'), field('Second die', d2, 'd2'), this.enter.element),
      h('div', { class: 'row' }, this.reveal.element));
    this.element = h('div', { class: 'zapp-controls' }, this.header, dice, this.seats, board.element, this.movesHost);
  }

  update(view: ZappView): void {
    const phase = PHASE_TEXT[view.phase] ?? view.phase;
    this.roll.set(view.phase === 'ROLL' ? null : `only before the roll (now: ${phase})`);
    this.enter.set(view.phase === 'ROLL' ? null : `only before the roll (now: ${phase})`);
    this.reveal.set(view.phase === 'SELECT' ? null : view.phase === 'ROLL' ? 'after the roll, while barrels are placed' : `only while barrels are placed (now: ${phase})`);
    replace(this.header, zappHeader(view));
    replace(this.seats, zappSeats(view));
    this.board.update(view);
    // The move list is rebuilt only when the moves on offer change; ticked boxes carry over by piece.
    const key = `${view.currentMover ?? ''}|${view.currentBarrel ?? ''}|${view.phase}|${JSON.stringify(view.moves)}`;
    if (key === this.movesKey) return;
    this.movesKey = key;
    const ticks = new Map([...this.movesHost.querySelectorAll<HTMLInputElement>('input[type=checkbox]')].map((b) => [b.id, b.checked]));
    const focused = document.activeElement instanceof HTMLElement && this.movesHost.contains(document.activeElement) ? document.activeElement.id : '';
    replace(this.movesHost, zappMoves(view, this.board, (m) => this.moveActions(view, m)));
    for (const box of this.movesHost.querySelectorAll<HTMLInputElement>('input[type=checkbox]')) {
      const was = ticks.get(box.id);
      if (was !== undefined) box.checked = was;
    }
    if (focused !== '') document.getElementById(focused)?.focus();
  }

  private moveActions(view: ZappView, m: MoveOption): HTMLElement {
    const id = (kind: string, piece: string): string => `${kind}-${m.piece}-${piece}`;
    const carry = m.carryable.map((c) => {
      const box = h('input', { type: 'checkbox', id: id('carry', c.piece), 'data-carry': c.piece });
      const city = c.mayEnterCity ? h('input', { type: 'checkbox', id: id('city', c.piece), 'data-city': c.piece, checked: true }) : null;
      return h('span', { class: 'carry' }, h('label', {}, box, ` carry ${pieceLabel(c.piece)}`),
        city === null ? null : h('label', {}, city, ' into the city'));
    });
    const go = h('button', {
      type: 'button', class: 'primary', id: `go-${m.piece}`, 'data-move': m.piece,
      onclick: () => {
        const checked = (kind: string, piece: string): boolean =>
          (document.getElementById(id(kind, piece)) as HTMLInputElement | null)?.checked === true;
        const params: Record<string, unknown> = { player: view.currentMover, piece: m.piece };
        if (m.carryable.length > 0) {
          params.carry = Object.fromEntries(m.carryable.map((c) => [c.piece, checked('carry', c.piece)]));
          const into = m.carryable.filter((c) => c.mayEnterCity);
          if (into.length > 0) params.intoCity = Object.fromEntries(into.map((c) => [c.piece, checked('city', c.piece)]));
        }
        void this.send(`move ${pieceLabel(m.piece)}`, 'move', params);
      },
    }, `Move ${pieceLabel(m.piece)}`);
    return h('span', { class: 'move-actions' }, carry, go);
  }
}

/** The Zip-Zap controls, built once and updated in place. */
class ZipControls {
  readonly element: HTMLElement;
  private readonly mode = h('p', { 'data-testid': 'mode' });
  private readonly tieHost = h('div', {});
  private readonly flip: GatedButton;
  private readonly declare: GatedButton;
  private readonly announce: GatedButton;
  private readonly next: GatedButton;
  private tieKey = '';

  constructor(private readonly send: (what: string, name: string, params: Record<string, unknown>) => Promise<boolean>) {
    this.flip = gatedButton(h('button', { type: 'button', onclick: () => void this.send('flip', 'action', { action: { type: 'flip' } }) }, 'Flip start card'));
    this.declare = gatedButton(h('button', { type: 'button', 'data-testid': 'declare-stuck', onclick: () => void this.send('nobody can play', 'declare-stuck', {}) }, 'Nobody can play'));
    // The engine's own "nobody can follow" (ORACLE): the table sends it by itself after stuckAnnounceDelayMs;
    // the referee may say it at once. Refused with SOMEONE_CAN_PLAY while a hand can follow.
    this.announce = gatedButton(h('button', {
      type: 'button', 'data-testid': 'announce-stuck', onclick: () => void this.send('announce stuck', 'action', { action: { type: 'announce-stuck' } }),
    }, 'Announce stuck'));
    this.next = gatedButton(h('button', { type: 'button', 'data-testid': 'next-round', onclick: () => void this.send('next round', 'next-round', {}) }, 'Next round'));
    this.element = h('section', { class: 'panel', 'aria-labelledby': 'ref-zip' }, h('h2', { id: 'ref-zip' }, 'Zip-Zap'), this.mode,
      h('div', { class: 'row gated-row' }, this.flip.element, this.declare.element, this.announce.element, this.next.element), this.tieHost);
  }

  update(view: ZipZapPublicView): void {
    const m = view.mode;
    const text = `Round ${view.round}/${view.roundsTotal} · ${m.kind}${m.kind === 'PAUSED' ? ` (${m.controller}, ${m.cause})` : ''}`;
    if (this.mode.textContent !== text) this.mode.textContent = text;
    const now = m.kind.toLowerCase().replaceAll('_', ' ');
    this.flip.set(m.kind === 'START' ? null : `only while the start card waits (now: ${now})`);
    this.declare.set(m.kind === 'RACE' ? null : `only during the race (now: ${now})`);
    this.announce.set(m.kind === 'RACE' ? null : `only during the race (now: ${now})`);
    this.next.set(m.kind === 'ROUND_OVER' ? null : `only after a round is over (now: ${now})`);
    const tieKey = JSON.stringify(view.tie);
    if (tieKey === this.tieKey) return;
    this.tieKey = tieKey;
    replace(this.tieHost, view.tie === null ? null : h('div', { class: 'tie-ruling', 'data-testid': 'tie-ruling' },
      h('p', { 'data-testid': 'tie-figures' }, tieSentence(view.tie)),
      h('div', { class: 'row' }, h('span', {}, 'First to land: '),
        view.tie.contenders.map((c) => h('button', {
          type: 'button', 'data-testid': `resolve-${c.player}`,
          onclick: () => void this.send(`tie: ${c.player}`, 'action', { action: { type: 'resolve-tie', first: c.player } }),
        }, c.player)))));
  }
}

/**
 * Which of this page's own controls a game gets. A game registered with its own referee controls
 * (games/registry.ts) gets those instead; any other game none.
 */
function controlsKind(game: string): 'zapp' | 'zip' | 'none' {
  if (game === 'zapp-zerapp') return 'zapp';
  if (game === 'zip-zap') return 'zip';
  return 'none';
}

export class RefereePage {
  readonly element = h('div', { class: 'referee' });
  private readonly result = resultLine();
  private readonly live = h('div', { class: 'live-controls' });
  private readonly events = h('div', { class: 'referee-events' });
  private readonly board = new ZappBoardPanel();
  private readonly stationSelect = h('select', {});
  private controls: { kind: 'zapp'; c: ZappControls } | { kind: 'zip'; c: ZipControls } | { kind: 'none' } | undefined;
  private lastSeq = -1;
  private lastEvent = -1;
  private readonly newGame: { element: HTMLElement; suggest: (s: Suggestion) => void };
  /** A registered game's own controls (games/registry.ts), while its game runs. */
  private part: { readonly game: string; readonly part: GamePart } | undefined;

  constructor(private readonly ctx: PageContext) {
    this.newGame = this.newGameForm();
    this.element.append(
      h('h1', {}, `Referee — ${ctx.store.bridgeEntry(ctx.table)?.name ?? ctx.table}`),
      tokenForm(),
      this.result.element,
      this.live,
      h('div', { class: 'forms' }, this.events, this.newGame.element, this.undoForm(), this.correctForm(), this.stationForm()),
    );
  }

  private readonly send = async (what: string, name: string, params: Record<string, unknown>): Promise<boolean> => {
    this.result.busy(what);
    const r = await sendRequest(this.ctx.table, name, params);
    this.result.show(what, r);
    return r.ok;
  };

  /** The table's game and players: from its state, else from `bridge/tables` (the configured seats and mode). */
  private suggestion(): Suggestion | undefined {
    const state = this.ctx.store.table(this.ctx.table).state;
    if (state?.mode === 'game') {
      switch (state.game) {
        case 'zapp-zerapp': {
          const view = state.view as unknown as ZappView;
          return { game: 'zapp-zerapp', variant: view.variant, players: view.players.map((p) => p.id) };
        }
        case 'zip-zap': {
          const view = state.view as unknown as ZipZapPublicView;
          return { game: 'zip-zap', variant: view.scoringMode, players: view.players.map((p) => p.id) };
        }
      }
    }
    const bridge = this.ctx.store.bridgeEntry(this.ctx.table);
    const seats = bridge?.seats?.map((s) => s.id) ?? [];
    if (bridge?.mode !== undefined && gameUi(bridge.mode) !== undefined) return { game: bridge.mode, players: seats };
    return undefined;
  }

  private newGameForm(): { element: HTMLElement; suggest: (s: Suggestion) => void } {
    const game = h('select', {}, options(gameUis().map((g) => g.id), gameUis().map((g) => g.title)));
    const variant = h('select', {});
    const seed = h('input', { type: 'text', inputmode: 'numeric', placeholder: 'random' });
    const seats = h('div', { class: 'seat-rows' });
    const colourNote = h('p', { class: 'why', id: 'ng-colour-why' });
    const fillVariant = (): void => {
      const variants = gameUi(game.value)?.newGame?.variants ?? [];
      replace(variant, options(variants.map((v) => v.value), variants.map((v) => v.label)));
      const zapp = game.value === 'zapp-zerapp';
      for (const sel of seats.querySelectorAll('select')) sel.disabled = !zapp;
      colourNote.textContent = zapp ? '' : 'Colours are for Zapp Zerapp only.';
    };
    for (let i = 0; i < SEATS; i++) {
      const name = h('input', { type: 'text', maxlength: 64, 'aria-label': `seat ${i + 1} player` });
      const colour = h('select', { 'aria-label': `seat ${i + 1} colour`, 'aria-describedby': 'ng-colour-why' }, h('option', { value: '' }, 'auto colour'),
        options([...COLOURS], COLOURS.map((c) => COLOUR_NAME[c])));
      seats.append(h('div', { class: 'seat-row' }, h('span', { class: 'muted' }, `seat ${i + 1}`), name, colour));
    }
    game.addEventListener('change', fillVariant);
    fillVariant();
    // The form follows the table until someone edits it; after that it is theirs.
    let edited = false;
    let shown = '';
    const suggest = (s: Suggestion): void => {
      const key = JSON.stringify(s);
      if (edited || key === shown) return;
      shown = key;
      game.value = s.game;
      fillVariant();
      if (s.variant !== undefined && [...variant.options].some((o) => o.value === s.variant)) variant.value = s.variant;
      seats.querySelectorAll('input').forEach((input, i) => {
        input.value = s.players[i] ?? '';
      });
    };
    const element = h('form', {
      class: 'panel', 'aria-labelledby': 'ng-title',
      oninput: () => {
        edited = true;
      },
      onsubmit: (e: Event) => {
        e.preventDefault();
        void (async () => {
          const rows = [...seats.querySelectorAll('.seat-row')].map((row) => ({
            id: (row.querySelector('input') as HTMLInputElement).value.trim(),
            colour: (row.querySelector('select') as HTMLSelectElement).value,
          })).filter((r) => r.id !== '');
          const players = rows.map((r) => r.id);
          const config: Record<string, unknown> = {};
          const variantKey = gameUi(game.value)?.newGame?.key;
          if (variantKey !== undefined && variant.value !== '') config[variantKey] = variant.value;
          if (game.value === 'zapp-zerapp') {
            const colours = Object.fromEntries(rows.filter((r) => r.colour !== '').map((r) => [r.id, r.colour]));
            if (Object.keys(colours).length > 0) config.colours = colours;
          }
          const seedText = seed.value.trim();
          const params: Record<string, unknown> = { game: game.value, players, config };
          if (seedText !== '') params.seed = /^-?\d+$/.test(seedText) ? Number(seedText) : seedText;
          if (!await confirmAction(`Start a new ${game.value} game for ${players.join(', ')}? The running game is replaced.`)) return;
          await this.send('new game', 'new-game', params);
        })();
      },
    }, h('h2', { id: 'ng-title' }, 'New game'), field('Game', game, 'ng-game'), field('Variant', variant, 'ng-variant'),
    h('fieldset', {}, h('legend', {}, 'Seats and colours (in order of play)'), seats, colourNote), field('Seed', seed, 'ng-seed'),
    h('button', { type: 'submit', class: 'danger' }, 'Start new game'));
    return { element, suggest };
  }

  private undoForm(): HTMLElement {
    const reason = h('input', { type: 'text', maxlength: 500, placeholder: 'optional' });
    return h('form', {
      class: 'panel', 'aria-labelledby': 'undo-title',
      onsubmit: (e: Event) => {
        e.preventDefault();
        void (async () => {
          if (!await confirmAction('Take back the last applied action?')) return;
          const r = reason.value.trim();
          await this.send('undo', 'undo', r === '' ? {} : { reason: r });
        })();
      },
    }, h('h2', { id: 'undo-title' }, 'Undo'), field('Reason', reason, 'undo-reason'), h('button', { type: 'submit', class: 'danger' }, 'Undo last action'));
  }

  private correctForm(): HTMLElement {
    const action = h('textarea', { rows: 3, placeholder: '{"type": "resolve-tie", "first": "ben"}' });
    const reason = h('input', { type: 'text', maxlength: 500, required: true });
    return h('form', {
      class: 'panel', 'aria-labelledby': 'correct-title',
      onsubmit: (e: Event) => {
        e.preventDefault();
        void (async () => {
          let parsed: unknown;
          try {
            parsed = JSON.parse(action.value);
          } catch {
            this.result.show('correction', { ok: false, code: 'BAD_JSON', message: 'the action is not valid JSON' });
            return;
          }
          if (!await confirmAction(`Apply this correction? ${reason.value}`)) return;
          await this.send('correction', 'correct', { reason: reason.value.trim(), action: parsed });
        })();
      },
    }, h('h2', { id: 'correct-title' }, 'Correction'), field('Engine action (JSON)', action, 'correct-action'), field('Reason', reason, 'correct-reason'),
    h('button', { type: 'submit', class: 'danger' }, 'Apply correction'));
  }

  private stationForm(): HTMLElement {
    return h('form', {
      class: 'panel', 'aria-labelledby': 'station-title',
      onsubmit: (e: Event) => {
        e.preventDefault();
        void (async () => {
          const station = this.stationSelect.value;
          if (station === '' || !await confirmAction(`Forget station ${station}? Use this for a station unplugged for good.`)) return;
          await this.send(`remove ${station}`, 'remove-station', { station });
        })();
      },
    }, h('h2', { id: 'station-title' }, 'Remove a station'), field('Station', this.stationSelect, 'station'),
    h('button', { type: 'submit', class: 'danger' }, 'Remove station'));
  }

  update(): void {
    const t = this.ctx.store.table(this.ctx.table);
    const stations = [...t.health.keys()].sort();
    const listed = [...this.stationSelect.options].map((o) => o.value);
    if (listed.join('\n') !== stations.join('\n')) {
      const chosen = this.stationSelect.value;
      replace(this.stationSelect, options(stations));
      if (stations.includes(chosen)) this.stationSelect.value = chosen;
    }
    const suggestion = this.suggestion();
    if (suggestion !== undefined) this.newGame.suggest(suggestion);
    const lastEvent = t.events.at(-1)?.seq ?? -1;
    if (lastEvent !== this.lastEvent || this.events.childElementCount === 0) {
      this.lastEvent = lastEvent;
      replace(this.events, eventList(t.events, 8));
    }
    const state = t.state;
    const seq = state?.seq ?? -1;
    if (seq === this.lastSeq && this.controls !== undefined) return;
    this.lastSeq = seq;
    // The state this page shows (tests wait for live updates by it).
    this.element.dataset.seq = String(seq);
    const referee = state?.mode === 'game' ? gameUi(state.game)?.referee : undefined;
    if (state?.mode === 'game' && referee !== undefined) {
      if (this.part?.game !== state.game) {
        this.part?.part.destroy?.();
        this.controls = undefined;
        const kit = { ctx: this.ctx, send: this.send, confirm: confirmAction };
        this.part = { game: state.game, part: referee(kit) };
        replace(this.live, this.part.part.element);
      }
      this.part.part.update();
      return;
    }
    if (this.part !== undefined) {
      this.part.part.destroy?.();
      this.part = undefined;
      this.controls = undefined;
    }
    const kind = state?.mode !== 'game' ? 'none' : controlsKind(state.game);
    if (this.controls?.kind !== kind) {
      // Another game (or none): its controls replace the old ones; inside one game nothing is rebuilt.
      this.controls = kind === 'zapp' ? { kind, c: new ZappControls(this.send, this.board) }
        : kind === 'zip' ? { kind, c: new ZipControls(this.send) } : { kind: 'none' };
      replace(this.live, this.controls.kind === 'none'
        ? h('p', { class: 'panel muted' }, 'No game is running on this table: start one below.') : this.controls.c.element);
    }
    if (state?.mode !== 'game') return;
    if (this.controls.kind === 'zapp') this.controls.c.update(state.view as unknown as ZappView);
    else if (this.controls.kind === 'zip') this.controls.c.update(state.view as unknown as ZipZapPublicView);
  }
}
