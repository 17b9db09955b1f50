/**
 * The demo's Zip-Zap bots: they play some cards on the pile station (its slap sensor dates them), the rest on
 * their pads, and stand in for a referee when a tie has waited long enough.
 */
import { describe, expect, it } from 'vitest';
import type { BotContext } from '../../controller/runtime/games/bot-context.ts';
import { zipBotStep } from '../../controller/runtime/zip-zap/table-bot.ts';
import { getEngine } from '../../controller/rules/games.ts';
import type { ZipZapState } from '../../controller/rules/zip-zap/index.ts';
import type { Item } from '../../controller/runtime/registry/items.ts';

const engine = getEngine('zip-zap');

function race(): ZipZapState {
  // Engine dealing: the start card is flipped at setup and the race is on.
  const setup = engine.setup({ players: ['A', 'B'] }, 7);
  if (!setup.ok) throw new Error(setup.message);
  expect((setup.state as ZipZapState).mode.kind).toBe('RACE');
  return setup.state as ZipZapState;
}

function context(overrides: Partial<BotContext>, log: string[]): BotContext {
  let n = 0;
  return {
    place: () => undefined, lift: () => undefined, padItem: () => undefined, isOnAnyPad: () => false, allPadsClear: () => true,
    tap: (station: string, item: Item) => log.push(`tap ${station} ${item.kind === 'card' ? item.card : ''}`),
    press: (station) => log.push(`press ${station}`),
    act: (action) => log.push(`act ${JSON.stringify(action)}`),
    isBot: () => true,
    chance: () => (n++ % 2) === 0,
    pick: (items) => items[0],
    tieWaitedMs: 0,
    ...overrides,
  };
}

describe('zip-zap bots', () => {
  it('play some cards on the pile station, the others on their pads', () => {
    const state = race();
    const legal = () => engine.legalActions(state) as unknown as Readonly<Record<string, unknown>>[];
    const player = state.players.find((p) => legal().some((a) => a.type === 'play' && a.player === p));
    if (player === undefined) return expect.fail('seed 7: somebody can follow the start card');
    const log: string[] = [];
    const ctx = context({ pileStation: 'pile-1', chance: () => false }, log);
    zipBotStep(state, { player, station: 'seat-x' }, ctx, legal());
    expect(log[0]).toMatch(/^tap seat-x /);
    const pile = context({ pileStation: 'pile-1', chance: () => true }, log);
    zipBotStep(state, { player, station: 'seat-x' }, pile, legal());
    expect(log.at(-1)).toMatch(/^tap pile-1 /);
  });

  it('leave a tie to the referee for a while, then the first bot resolves it', () => {
    const base = race();
    const state: ZipZapState = { ...base, tie: { contenders: [{ player: 'A', card: 'R1', at: 1 }, { player: 'B', card: 'B1', at: 2 }], queued: [] } };
    const legal = engine.legalActions(state) as unknown as Readonly<Record<string, unknown>>[];
    const log: string[] = [];
    zipBotStep(state, { player: 'A', station: 's1' }, context({ tieWaitedMs: 7000 }, log), legal);
    zipBotStep(state, { player: 'B', station: 's2' }, context({ tieWaitedMs: 9000 }, log), legal);
    expect(log).toEqual([]);
    zipBotStep(state, { player: 'A', station: 's1' }, context({ tieWaitedMs: 9000 }, log), legal);
    expect(log).toEqual(['act {"type":"resolve-tie","first":"A"}']);
  });
});
