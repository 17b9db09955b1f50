/**
 * Killer-21's game definition (rules/game-definition.ts), the worked example of docs/adding-a-game.md.
 */
import { checkSeatedRules } from '../common/seated-config.ts';
import type { GameDefinition } from '../game-definition.ts';
import { DEFAULT_CONFIG, resolveConfig } from './config.ts';
import { killer21Engine } from './engine.ts';
import { handOf, hiddenIn, type Killer21State } from './state.ts';

export const killer21Game: GameDefinition = {
  id: 'killer-21',
  title: 'Killer-21',
  engine: killer21Engine,
  seats: [2, 7],
  rulesKeys: Object.keys(DEFAULT_CONFIG),
  rulesFromSeats: ['players'],
  engineRules: (rules) => ({ ...rules }),
  checkRules: checkSeatedRules(resolveConfig),
  houseRules(rules) {
    const deck = rules.deck;
    const killers = typeof deck === 'object' && deck !== null ? (deck as Record<string, unknown>).KILLER : undefined;
    if (typeof killers !== 'number' || killers === 1) return [];
    return [killers === 0
      ? 'deck.KILLER: 0 — a house rule: the printed deck has exactly one Killer (K21-2, K21-30); no Killer race is ever played'
      : `deck.KILLER: ${killers} — a house rule: the printed deck has exactly one Killer (K21-2, K21-30); each copy opens its own Killer window`];
  },
  tableKeys: ['pileStation', 'chips'],
  // Killer-21 events carry no hidden information (a draw is a count; a zero kept in a hand has no card id).
  publicEvent: (event) => event,
  requests: ['next-round', 'simulated-hand'],
  knownHand(state, player) {
    const s = state as Killer21State;
    return { cards: [...handOf(s, player)], complete: hiddenIn(s, player) === 0 };
  },
  simulation: {
    playerIds: ['A', 'B', 'C', 'D', 'E', 'F', 'G'],
    // `table-deal`: the cards dealt at the table (C-K.3): bots skip registration and play unseen cards by the counts.
    variants: {
      standard: { variant: 'STANDARD' }, blitz: { variant: 'BLITZ' }, 'table-deal': { variant: 'STANDARD', dealing: 'TABLE' },
    },
    defaultVariant: 'standard',
  },
  demo: { label: '4 players', config: { players: ['Ada', 'Ben', 'Cleo', 'Dan'] } },
};
