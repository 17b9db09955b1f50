/**
 * Zip-Zap's game definition (rules/game-definition.ts): its engine, its options, its public event filter.
 */
import { checkSeatedRules } from '../common/seated-config.ts';
import type { GameDefinition } from '../game-definition.ts';
import { DEFAULT_CONFIG, resolveConfig } from './config.ts';
import { zipZapEngine } from './engine.ts';
import { toPublicEvent, type ZipZapEvent } from './events.ts';
import type { ZipZapState } from './state.ts';

export const zipZapGame: GameDefinition = {
  id: 'zip-zap',
  title: 'Zip-Zap',
  engine: zipZapEngine,
  seats: [2, 6],
  rulesKeys: Object.keys(DEFAULT_CONFIG),
  rulesFromSeats: ['players'],
  engineRules: (rules) => ({ ...rules }),
  checkRules: checkSeatedRules(resolveConfig),
  tableKeys: ['pileStation'],
  // Drops the ORACLE's private stuck knowledge and the cards of refused plays.
  publicEvent: (event) => toPublicEvent(event as ZipZapEvent),
  requests: ['declare-stuck', 'next-round', 'simulated-hand'],
  knownHand(state, player) {
    const s = state as ZipZapState;
    const complete = s.handKnown[player] === true;
    return { cards: complete ? [...(s.hands[player] ?? [])] : [], complete };
  },
  simulation: {
    playerIds: ['A', 'B', 'C', 'D', 'E', 'F'],
    variants: { penalty: { scoringMode: 'PENALTY' }, wins: { scoringMode: 'WINS' } },
    defaultVariant: 'penalty',
  },
  demo: { label: '3 players', config: { players: ['Ada', 'Ben', 'Cleo'] } },
};
