/**
 * A red 0 whose line reached the table before the Killer's (K21-32, K21-33; docs/timing.md §3.5). Lines from
 * different stations arrive in any order — an FT232 holds a line up to its 16 ms latency timer, the driver holds
 * a tag read up to the slap hold — so a zero laid just after the Killer can be read while it is still the Killer's
 * player's turn: then it is a play out of turn, refused, and without this module the zero lying on the pad would
 * never answer the Killer, and its player would lose a life for an answer in time.
 *
 * So a red 0 that lands on a seat pad during another player's turn is remembered with its sensor event; when the
 * Killer's window opens, each remembered zero that still lies on its pad, landed at most `EARLY_ZERO_LOOK_BACK_MS`
 * before the window opened, and whose player must still answer, is sent as that player's `respond` with its own
 * landing interval. The engine judges it by that interval, never by the arrival order: wholly before the Killer's
 * landing it is no answer (`ZERO_BEFORE_KILLER`), overlapping it a tie for the referee, after it in time.
 */
import type { SensorEvent, StationId } from '../../hardware/interface.ts';
import { isRedZero, type Killer21State } from '../../rules/killer-21/index.ts';
import type { Intent } from '../intents.ts';
import { landingOf } from '../pads/landing-interval.ts';
import type { Pads } from '../pads/pad-state.ts';

/**
 * How long before the window opened a remembered zero may have landed, ms: the slowest line the driver produces
 * on its own (the 250 ms slap hold, the FT232's 16 ms) with margin — Zip-Zap's `reorderLookBackMs` default. A
 * zero that lay on the pad longer was put down before the Killer was played; the player lays it again.
 */
export const EARLY_ZERO_LOOK_BACK_MS = 500;

interface EarlyZero {
  readonly player: string;
  readonly card: string;
  readonly event: SensorEvent & { readonly kind: 'tag-arrived' };
}

export class EarlyZeros {
  private zeros: EarlyZero[] = [];

  /** A card landed on `player`'s seat pad: remembered if it is a red 0 laid during another player's turn. */
  note(state: Killer21State, event: SensorEvent, player: string, card: string): void {
    if (event.kind !== 'tag-arrived' || state.phase !== 'TURN' || state.turn === player || !isRedZero(card)) return;
    this.zeros = [...this.zeros.filter((z) => z.player !== player), { player, card, event }];
  }

  /**
   * The answers the state calls for: once a Killer window is open, every remembered zero that still lies on its
   * pad and landed within the look-back before `atMs`, for a player who must still answer. Each is sent once.
   */
  answers(
    state: Killer21State, pads: Pads, atMs: number, respond: (player: string, card: string, event: SensorEvent) => Intent,
  ): Intent[] {
    if (this.zeros.length === 0 || state.phase === 'TURN') return [];
    const zeros = this.zeros;
    this.zeros = [];
    const w = state.killer;
    if (state.phase !== 'KILLER' || w === null || w.closed) return [];
    return zeros
      .filter((z) => w.answers[z.player]?.status === 'PENDING' && onPad(pads, z.event.station, z.event.uid)
        && atMs - landingOf(z.event).atLatest <= EARLY_ZERO_LOOK_BACK_MS)
      .map((z) => respond(z.player, z.card, z.event));
  }
}

function onPad(pads: Pads, station: StationId, uid: string): boolean {
  return pads[station]?.tags.includes(uid) ?? false;
}
