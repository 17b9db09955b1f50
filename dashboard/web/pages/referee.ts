/**
 * Referee controls. The token is kept in sessionStorage (this tab only). Every control is a request to the
 * table through the dashboard (`api.ts`); destructive ones (new game, undo, correct, remove a station) ask for
 * confirmation first. The answer (ok, or the code and message) is shown in the status line.
 *
 * The live controls are the running game's (its referee part, `games/<id>/referee-controls.ts`, found in
 * games/registry.ts); the new-game form lists the registered games, their variants and seat colours.
 *
 * Live updates change the page in place: every control is built once and only its state (enabled, the reason
 * it is not, the texts beside it) follows the table, so chosen dice, ticked carry boxes, typed reasons and the
 * keyboard focus survive every update. The games' parts keep to the same rule: only what has no inputs (dice
 * faces, seats, events) is redrawn, a move list only when the moves on offer change.
 */
import { confirmAction, sendRequest } from '../api.ts';
import { eventList, field, options, resultLine, tokenForm, type Wording } from '../common.ts';
import { h, replace } from '../dom.ts';
import type { GamePart, RefereeKit, RunningGame, VariantChoice } from '../games/game-ui.ts';
import { gameUi, gameUis } from '../games/registry.ts';
import { namedText, namesOf, stationNamesOf } from '../names.ts';
import type { PageContext } from '../page.ts';

const SEATS = 6;

/** What the new-game form offers before anyone edits it: the table's own game and players. */
interface Suggestion extends RunningGame {
  readonly game: string;
}

/**
 * The seat colours the form's colour selects offer: those of every game that takes colours (games/<id>/index.ts,
 * `newGame.colours`), each once, in the registry's order.
 */
function seatColours(): { readonly choices: readonly VariantChoice[]; readonly games: string } {
  const games = gameUis().filter((g) => g.newGame.colours !== undefined);
  const choices = new Map(games.flatMap((g) => g.newGame.colours ?? []).map((c) => [c.value, c]));
  return { choices: [...choices.values()], games: games.map((g) => g.title).join(', ') };
}

/** A table's configured rules in words: `lives 3 · handSize 3 · deck KILLER 0`, or that it plays the defaults. */
function rulesText(rules: Readonly<Record<string, unknown>> | undefined): string {
  const entries = Object.entries(rules ?? {});
  if (entries.length === 0) return 'the game\'s standard rules';
  const value = (v: unknown): string => (typeof v === 'object' && v !== null
    ? Object.entries(v).map(([k, x]) => `${k} ${JSON.stringify(x)}`).join(', ') : String(v));
  return entries.map(([k, v]) => `${k} ${value(v)}`).join(' · ');
}

export class RefereePage {
  readonly element = h('div', { class: 'referee' });
  private readonly result = resultLine();
  private readonly live = h('div', { class: 'live-controls' });
  private readonly events = h('div', { class: 'referee-events' });
  private readonly stationSelect = h('select', {});
  private lastSeq: number | undefined;
  private lastEvent = -1;
  private readonly newGame: { element: HTMLElement; suggest: (s: Suggestion) => void };
  /**
   * What the live controls show: the running game's own controls (its referee part, games/registry.ts), or
   * `game: undefined` for "no game is running"; undefined before the first update.
   */
  private controls: { readonly game: string | undefined; readonly part?: GamePart } | undefined;

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
    this.result.show(what, r, this.wording());
    return r.ok;
  };

  /** The running game's refusal sentences and the table's names, for the answers (refusal-text.ts, names.ts). */
  private wording(): Wording {
    const state = this.ctx.store.table(this.ctx.table).state;
    const game = state?.mode === 'game' ? gameUi(state.game) : undefined;
    return { ...(game === undefined ? {} : { refusals: game.refusals }), named: namedText(this.ctx.store, this.ctx.table) };
  }

  /** The table's game and players: from its state, else from `bridge/tables` (the configured seats and mode). */
  private suggestion(): Suggestion | undefined {
    const state = this.ctx.store.table(this.ctx.table).state;
    const running = state?.mode === 'game' ? gameUi(state.game)?.newGame.running : undefined;
    if (state?.mode === 'game' && running !== undefined) return { game: state.game, ...running(state.view) };
    const bridge = this.ctx.store.bridgeEntry(this.ctx.table);
    const seats = bridge?.seats?.map((s) => s.id) ?? [];
    if (bridge?.mode !== undefined && gameUi(bridge.mode) !== undefined) return { game: bridge.mode, players: seats };
    return undefined;
  }

  private newGameForm(): { element: HTMLElement; suggest: (s: Suggestion) => void } {
    const game = h('select', {}, options(gameUis().map((g) => g.id), gameUis().map((g) => g.title)));
    const variant = h('select', {});
    const seed = h('input', { type: 'text', inputmode: 'numeric', placeholder: 'random' });
    // The table's configured rules (bridge/tables): a new game keeps them unless the variant above changes one.
    const rulesNote = h('p', { class: 'why', 'data-testid': 'ng-rules' });
    const showRules = (): void => {
      rulesNote.textContent = `Kept from the table's configuration: ${rulesText(this.ctx.store.bridgeEntry(this.ctx.table)?.rules)}.`;
    };
    const seats = h('div', { class: 'seat-rows' });
    const colourNote = h('p', { class: 'why', id: 'ng-colour-why' });
    const colours = seatColours();
    const fillVariant = (): void => {
      const form = gameUi(game.value)?.newGame;
      const variants = form?.variants ?? [];
      replace(variant, options(variants.map((v) => v.value), variants.map((v) => v.label)));
      const coloured = form?.colours !== undefined;
      for (const sel of seats.querySelectorAll('select')) sel.disabled = !coloured;
      colourNote.textContent = coloured ? '' : colours.games === '' ? 'No game takes seat colours.' : `Colours are for ${colours.games} only.`;
    };
    // As many seat rows as the table has seats (bridge/tables), else as many as any game takes: a new game
    // chooses among the table's stations, so more rows than seats could only be refused.
    const fitRows = (): void => {
      const wanted = this.ctx.store.bridgeEntry(this.ctx.table)?.seats?.length ?? SEATS;
      while (seats.children.length > wanted) seats.lastElementChild?.remove();
      for (let i = seats.children.length; i < wanted; i++) {
        const name = h('input', { type: 'text', maxlength: 64, 'aria-label': `seat ${i + 1} player` });
        const colour = h('select', { 'aria-label': `seat ${i + 1} colour`, 'aria-describedby': 'ng-colour-why' },
          h('option', { value: '' }, 'auto colour'), options(colours.choices.map((c) => c.value), colours.choices.map((c) => c.label)));
        seats.append(h('div', { class: 'seat-row' }, h('span', { class: 'muted' }, `seat ${i + 1}`), name, colour));
      }
    };
    fitRows();
    game.addEventListener('change', fillVariant);
    fillVariant();
    // The form follows the table until someone edits it; after that it is theirs.
    let edited = false;
    let shown = '';
    const suggest = (s: Suggestion): void => {
      const key = JSON.stringify(s);
      if (edited || key === shown) return;
      shown = key;
      fitRows();
      game.value = s.game;
      fillVariant();
      if (s.variant !== undefined && [...variant.options].some((o) => o.value === s.variant)) variant.value = s.variant;
      seats.querySelectorAll('input').forEach((input, i) => {
        input.value = s.players[i] ?? '';
      });
      showRules();
    };
    showRules();
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
          const form = gameUi(game.value)?.newGame;
          if (form !== undefined && variant.value !== '') config[form.key] = variant.value;
          if (form?.colours !== undefined) {
            const colours = Object.fromEntries(rows.filter((r) => r.colour !== '').map((r) => [r.id, r.colour]));
            if (Object.keys(colours).length > 0) config.colours = colours;
          }
          const seedText = seed.value.trim();
          const params: Record<string, unknown> = { game: game.value, players, config };
          if (seedText !== '') params.seed = /^-?\d+$/.test(seedText) ? Number(seedText) : seedText;
          const kept = rulesText(this.ctx.store.bridgeEntry(this.ctx.table)?.rules);
          if (!await confirmAction(`Start a new ${game.value} game for ${players.join(', ')}? The running game is replaced; `
            + `the table's rules are kept (${kept}).`)) return;
          await this.send('new game', 'new-game', params);
        })();
      },
    }, h('h2', { id: 'ng-title' }, 'New game'), field('Game', game, 'ng-game'), field('Variant', variant, 'ng-variant'),
    h('fieldset', {}, h('legend', {}, 'Seats and colours (in order of play)'), seats, colourNote), field('Seed', seed, 'ng-seed'), rulesNote,
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
          const label = this.stationSelect.selectedOptions[0]?.textContent ?? station;
          if (station === '' || !await confirmAction(`Forget station ${label}? Use this for a station unplugged for good.`)) return;
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
      // Each station with whose it is ("Ada's pad (t2-seat-1)"): the referee picks by name, the request by id.
      const stationName = stationNamesOf(this.ctx.store, this.ctx.table);
      replace(this.stationSelect, options(stations, stations.map((s) => (stationName(s) === s ? s : `${stationName(s)} (${s})`))));
      if (stations.includes(chosen)) this.stationSelect.value = chosen;
    }
    const suggestion = this.suggestion();
    if (suggestion !== undefined) this.newGame.suggest(suggestion);
    const lastEvent = t.events.at(-1)?.seq ?? -1;
    if (lastEvent !== this.lastEvent || this.events.childElementCount === 0) {
      this.lastEvent = lastEvent;
      // The game's own sentences with the players' names: the referee reads at least what the audience reads.
      const game = t.state?.mode === 'game' ? gameUi(t.state.game) : undefined;
      const nameOf = namesOf(this.ctx.store, this.ctx.table);
      replace(this.events, eventList(t.events, 8, nameOf, game?.describeEvent, namedText(this.ctx.store, this.ctx.table)));
    }
    const state = t.state;
    const seq = state?.seq ?? -1;
    if (seq !== this.lastSeq) {
      this.lastSeq = seq;
      // The state this page shows (tests wait for live updates by it).
      this.element.dataset.seq = String(seq);
    }
    const ui = state?.mode === 'game' ? gameUi(state.game) : undefined;
    if (this.controls === undefined || this.controls.game !== ui?.id) {
      // Another game (or none): its controls replace the old ones; inside one game nothing is rebuilt, and the
      // game's part follows the table by itself (games/<id>/referee-controls.ts).
      this.controls?.part?.destroy?.();
      const kit: RefereeKit = { ctx: this.ctx, send: this.send, confirm: confirmAction };
      this.controls = ui === undefined ? { game: undefined } : { game: ui.id, part: ui.referee(kit) };
      replace(this.live, this.controls.part?.element ?? h('p', { class: 'panel muted' }, 'No game is running on this table: start one below.'));
    }
    this.controls.part?.update();
  }
}
