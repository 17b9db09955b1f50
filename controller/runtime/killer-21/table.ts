/**
 * Killer-21's table behaviour behind TableGame: card-pads.ts decisions, the chip check, the lamps, the red
 * zeros whose lines came before the Killer's (early-zeros.ts), and the Killer window's deadline timer
 * (`close-window` once the deadline and a grace have passed, K21-36).
 */
import type { Killer21State } from '../../rules/killer-21/index.ts';
import { playersOf, type TableContext, type TableGame } from '../games/table-game.ts';
import { DEFAULT_CHIPS, type ChipSettings } from './chips.ts';
import { k21EventIntents, respond } from './card-pads.ts';
import { EarlyZeros } from './early-zeros.ts';
import { lookupTag } from '../registry/tag-registry.ts';
import { k21Lamps } from './lamps.ts';

/**
 * How long after the deadline the window is closed (ms): a zero that landed in time but was read late (the
 * reader's poll window, the serial line, the arbitration of the clock mapping) must still arrive before the
 * close, so the grace covers the largest uncertainty plus reader latency (Part C-K, K21-30..37). Zeros are
 * judged by their landing times, not by when the close happens, so a longer grace changes no verdict.
 */
export const KILLER_GRACE_MS = 300;

/** The table's chip settings from its `chips` options (the configuration has validated them). */
export function chipSettings(options: Readonly<Record<string, unknown>>): ChipSettings {
  const raw = (options.chips ?? {}) as Partial<ChipSettings>;
  return { ...DEFAULT_CHIPS, ...raw };
}

export function killer21Table(ctx: TableContext): TableGame {
  const k21 = {
    seatOfStation: ctx.seatOfStation, registry: ctx.registry, chips: chipSettings(ctx.options),
    ...(ctx.pileStation === undefined ? {} : { pileStation: ctx.pileStation }),
  };
  // Red zeros whose lines came before the Killer's: answered once its window opens (early-zeros.ts).
  const early = new EarlyZeros();
  return {
    id: 'killer-21',
    onSensor(raw, padsAfter, event, padsBefore) {
      const player = ctx.seatOfStation[event.station];
      const item = event.kind === 'tag-arrived' ? lookupTag(ctx.registry, event.uid) : undefined;
      if (player !== undefined && event.station !== ctx.pileStation && item?.kind === 'k21') {
        early.note(raw as Killer21State, event, player, item.card);
      }
      return k21EventIntents(raw as Killer21State, padsAfter, event, padsBefore, k21);
    },
    followUps: (raw, pads, at) => early.answers(raw as Killer21State, pads, at, respond),
    requestRefusal: () => null,
    lamps: (raw) => k21Lamps(raw as Killer21State),
    // K21-44 at the table: after a lost life the seat lamp asks the player to take a chip off (C-K).
    flashFor: (events) => playersOf(events, 'LIFE_LOST'),
    timer(raw, nowMs) {
      const state = raw as Killer21State;
      const w = state.killer;
      if (state.phase !== 'KILLER' || w === null || w.closed || w.deadline === null) return null;
      return { delayMs: w.deadline + KILLER_GRACE_MS - nowMs, action: { type: 'close-window' } };
    },
  };
}
