/**
 * Referee controls. The token is kept in sessionStorage (this tab only). Every control is a request to the
 * table through the dashboard (`api.ts`); destructive ones (new game, undo, correct, remove a station) ask for
 * confirmation first. The answer (ok, or the code and message) is shown in the status line.
 */
import { confirmAction, sendRequest } from '../api.ts';
import { COLOUR_NAME, pieceLabel } from '../board-svg.ts';
import { field, resultLine, tokenForm } from '../common.ts';
import { h, replace } from '../dom.ts';
import type { PageContext } from '../page.ts';
import type { GamePart } from '../games/game-ui.ts';
import { gameUi, gameUis } from '../games/registry.ts';
import { tieSentence } from '../tie-text.ts';
import type { MoveOption, ZappView, ZipZapPublicView } from '../types.ts';
import { ZappBoardPanel, zappHeader, zappMoves, zappSeats } from './zapp-zerapp.ts';

const COLOURS = ['RED', 'GREEN', 'BLUE', 'YELLOW'] as const;

function options(values: readonly string[], labels?: readonly string[]): HTMLOptionElement[] {
  return values.map((v, i) => h('option', { value: v }, labels?.[i] ?? v));
}

export class RefereePage {
  readonly element = h('div', { class: 'referee' });
  private readonly result = resultLine();
  private readonly live = h('div', { class: 'live-controls' });
  private readonly board = new ZappBoardPanel();
  private readonly stationSelect = h('select', {});
  private lastSeq = -1;
  /** A registered game's own controls (games/registry.ts), while its game runs. */
  private part: { readonly game: string; readonly part: GamePart } | undefined;

  constructor(private readonly ctx: PageContext) {
    this.element.append(
      h('h1', {}, `Referee — ${ctx.table}`),
      tokenForm(),
      this.result.element,
      this.live,
      h('div', { class: 'forms' }, this.newGameForm(), this.undoForm(), this.correctForm(), this.stationForm()),
    );
  }

  private async send(what: string, name: string, params: Record<string, unknown>): Promise<boolean> {
    this.result.busy(what);
    const r = await sendRequest(this.ctx.table, name, params);
    this.result.show(what, r);
    return r.ok;
  }

  private newGameForm(): HTMLElement {
    const game = h('select', {}, options(gameUis().map((g) => g.id), gameUis().map((g) => g.title)));
    const variant = h('select', {});
    const seed = h('input', { type: 'text', inputmode: 'numeric', placeholder: 'random' });
    const seats = h('div', { class: 'seat-rows' });
    const fillVariant = (): void => {
      const variants = gameUi(game.value)?.newGame?.variants ?? [];
      replace(variant, options(variants.map((v) => v.value), variants.map((v) => v.label)));
      for (const sel of seats.querySelectorAll('select')) (sel).disabled = game.value !== 'zapp-zerapp';
    };
    const names = ['ana', 'ben', 'cy', 'dee', 'eli', 'fay'];
    for (let i = 0; i < 6; i++) {
      const name = h('input', { type: 'text', maxlength: 64, 'aria-label': `seat ${i + 1} player` });
      if (i < 2) name.value = names[i] ?? '';
      const colour = h('select', { 'aria-label': `seat ${i + 1} colour` }, h('option', { value: '' }, 'auto colour'),
        options([...COLOURS], COLOURS.map((c) => COLOUR_NAME[c])));
      seats.append(h('div', { class: 'seat-row' }, h('span', { class: 'muted' }, `seat ${i + 1}`), name, colour));
    }
    game.addEventListener('change', fillVariant);
    fillVariant();
    return h('form', {
      class: 'panel', 'aria-label': 'New game',
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
    }, h('h2', {}, 'New game'), field('Game', game, 'ng-game'), field('Variant', variant, 'ng-variant'),
    h('fieldset', {}, h('legend', {}, 'Seats and colours (in order of play)'), seats), field('Seed', seed, 'ng-seed'),
    h('button', { type: 'submit', class: 'danger' }, 'Start new game'));
  }

  private undoForm(): HTMLElement {
    const reason = h('input', { type: 'text', maxlength: 500, placeholder: 'optional' });
    return h('form', {
      class: 'panel', 'aria-label': 'Undo',
      onsubmit: (e: Event) => {
        e.preventDefault();
        void (async () => {
          if (!await confirmAction('Take back the last applied action?')) return;
          const r = reason.value.trim();
          await this.send('undo', 'undo', r === '' ? {} : { reason: r });
        })();
      },
    }, h('h2', {}, 'Undo'), field('Reason', reason, 'undo-reason'), h('button', { type: 'submit', class: 'danger' }, 'Undo last action'));
  }

  private correctForm(): HTMLElement {
    const action = h('textarea', { rows: 3, placeholder: '{"type": "resolve-tie", "first": "ben"}' });
    const reason = h('input', { type: 'text', maxlength: 500, required: true });
    return h('form', {
      class: 'panel', 'aria-label': 'Correction',
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
    }, h('h2', {}, 'Correction'), field('Engine action (JSON)', action, 'correct-action'), field('Reason', reason, 'correct-reason'),
    h('button', { type: 'submit', class: 'danger' }, 'Apply correction'));
  }

  private stationForm(): HTMLElement {
    return h('form', {
      class: 'panel', 'aria-label': 'Remove a station',
      onsubmit: (e: Event) => {
        e.preventDefault();
        void (async () => {
          const station = this.stationSelect.value;
          if (station === '' || !await confirmAction(`Forget station ${station}? Use this for a station unplugged for good.`)) return;
          await this.send(`remove ${station}`, 'remove-station', { station });
        })();
      },
    }, h('h2', {}, 'Remove a station'), field('Station', this.stationSelect, 'station'), h('button', { type: 'submit', class: 'danger' }, 'Remove station'));
  }

  private zappControls(view: ZappView): HTMLElement[] {
    const d1 = h('select', {}, options(['1', '2', '3', '4', '5', '6']));
    const d2 = h('select', {}, options(['1', '2', '3', '4', '5', '6']));
    const dice = h('section', { class: 'panel', 'aria-label': 'Dice' }, h('h2', {}, 'Dice'),
      h('button', { type: 'button', 'data-testid': 'roll', disabled: view.phase !== 'ROLL', onclick: () => void this.send('roll', 'roll', {}) }, 'Roll the dice'),
      h('form', {
        class: 'inline',
        onsubmit: (e: Event) => {
          e.preventDefault();
          void this.send('enter dice', 'enter-dice', { d1: Number(d1.value), d2: Number(d2.value) });
        },
      }, field('First die', d1, 'd1'), field('Second die', d2, 'd2'), h('button', { type: 'submit', disabled: view.phase !== 'ROLL' }, 'Enter dice')),
      h('button', { type: 'button', disabled: view.phase !== 'SELECT', onclick: () => void this.send('reveal', 'action', { action: { type: 'reveal' } }) }, 'Reveal now'));
    const extra = (m: MoveOption): HTMLElement => {
      const carry = m.carryable.map((c) => {
        const box = h('input', { type: 'checkbox', 'data-carry': c.piece });
        const city = c.mayEnterCity ? h('input', { type: 'checkbox', 'data-city': c.piece, checked: true }) : null;
        return h('span', { class: 'carry' }, h('label', {}, box, ` carry ${pieceLabel(c.piece)}`),
          city === null ? null : h('label', {}, city, ' into the city'));
      });
      const go = h('button', {
        type: 'button', class: 'primary', 'data-move': m.piece,
        onclick: () => {
          const params: Record<string, unknown> = { player: view.currentMover, piece: m.piece };
          if (m.carryable.length > 0) {
            params.carry = Object.fromEntries(m.carryable.map((c) => [c.piece, (go.parentElement?.querySelector(`[data-carry="${c.piece}"]`) as HTMLInputElement | null)?.checked === true]));
            const into = m.carryable.filter((c) => c.mayEnterCity);
            if (into.length > 0) {
              params.intoCity = Object.fromEntries(into.map((c) => [c.piece, (go.parentElement?.querySelector(`[data-city="${c.piece}"]`) as HTMLInputElement | null)?.checked === true]));
            }
          }
          void this.send(`move ${pieceLabel(m.piece)}`, 'move', params);
        },
      }, `Move ${pieceLabel(m.piece)}`);
      return h('span', { class: 'move-actions' }, carry, go);
    };
    return [zappHeader(view), dice, zappSeats(view), this.board.element, zappMoves(view, this.board, extra)];
  }

  private zipControls(view: ZipZapPublicView): HTMLElement[] {
    const m = view.mode;
    return [h('section', { class: 'panel', 'aria-label': 'Zip-Zap controls' }, h('h2', {}, 'Zip-Zap'),
      h('p', { 'data-testid': 'mode' }, `Round ${view.round}/${view.roundsTotal} · ${m.kind}${m.kind === 'PAUSED' ? ` (${m.controller}, ${m.cause})` : ''}`),
      h('div', { class: 'row' },
        h('button', { type: 'button', disabled: m.kind !== 'START', onclick: () => void this.send('flip', 'action', { action: { type: 'flip' } }) }, 'Flip start card'),
        h('button', { type: 'button', 'data-testid': 'declare-stuck', disabled: m.kind !== 'RACE', onclick: () => void this.send('nobody can play', 'declare-stuck', {}) }, 'Nobody can play'),
        h('button', { type: 'button', 'data-testid': 'next-round', disabled: m.kind !== 'ROUND_OVER', onclick: () => void this.send('next round', 'next-round', {}) }, 'Next round')),
      view.tie === null ? null : h('div', { class: 'tie-ruling', 'data-testid': 'tie-ruling' },
        h('p', { 'data-testid': 'tie-figures' }, tieSentence(view.tie)),
        h('div', { class: 'row' }, h('span', {}, 'First to land: '),
          view.tie.contenders.map((c) => h('button', {
            type: 'button', 'data-testid': `resolve-${c.player}`,
            onclick: () => void this.send(`tie: ${c.player}`, 'action', { action: { type: 'resolve-tie', first: c.player } }),
          }, c.player)))))];
  }

  update(): void {
    const t = this.ctx.store.table(this.ctx.table);
    const stations = [...t.health.keys()].sort();
    const shown = [...this.stationSelect.options].map((o) => o.value);
    if (shown.join('\n') !== stations.join('\n')) {
      replace(this.stationSelect, options(stations));
    }
    const state = t.state;
    const referee = state?.mode === 'game' ? gameUi(state.game)?.referee : undefined;
    if (state?.mode === 'game' && referee !== undefined) {
      if (this.part?.game !== state.game) {
        this.part?.part.destroy?.();
        const kit = { ctx: this.ctx, send: this.send.bind(this), confirm: confirmAction };
        this.part = { game: state.game, part: referee(kit) };
        replace(this.live, this.part.part.element);
      }
      this.part.part.update();
      return;
    }
    this.part?.part.destroy?.();
    this.part = undefined;
    const seq = state?.seq ?? -1;
    if (seq === this.lastSeq && this.live.childElementCount > 0) return;
    this.lastSeq = seq;
    if (state?.mode !== 'game') {
      replace(this.live, h('p', { class: 'panel muted' }, 'No game is running on this table: start one below.'));
    } else if (state.game === 'zapp-zerapp') {
      const view = state.view as unknown as ZappView;
      this.board.update(view);
      replace(this.live, this.zappControls(view));
    } else {
      replace(this.live, this.zipControls(state.view as unknown as ZipZapPublicView));
    }
  }
}
