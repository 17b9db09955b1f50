/**
 * Zapp Zerapp's game definition (rules/game-definition.ts): its engine, its options, what comes from the seats.
 */
import type { DefinitionSeat, GameDefinition } from '../game-definition.ts';
import { resolveConfig } from './config.ts';
import { zappZerappEngine } from './engine.ts';

const FROM_SEATS = ['players', 'colours'];
const probe = resolveConfig({ players: ['a', 'b'] });

/** The seats' colours as the engine takes them (upper case; each seat's pieces start at that home). */
function colours(seats: readonly DefinitionSeat[]): Record<string, string> {
  return Object.fromEntries(seats.map((s) => [s.id, (s.colour ?? '').toUpperCase()]));
}

export const zappZerappGame: GameDefinition = {
  id: 'zapp-zerapp',
  title: 'Zapp Zerapp',
  engine: zappZerappEngine,
  seats: [2, 4],
  rulesKeys: (probe.ok ? Object.keys(probe.config) : []).filter((k) => !FROM_SEATS.includes(k)),
  rulesFromSeats: FROM_SEATS,
  engineRules: (rules, seats) => ({ ...rules, colours: colours(seats) }),
  checkRules(rules, seats) {
    const r = resolveConfig({ ...rules, players: seats.map((s) => s.id), colours: colours(seats) });
    return r.ok ? [] : r.errors;
  },
  tableKeys: [],
  seatColours: ['red', 'green', 'blue', 'yellow'],
  // No Zapp Zerapp event carries a barrel number before the reveal (docs/rules-engine.md): all are public.
  publicEvent: (event) => event,
  requests: ['roll', 'enter-dice', 'move'],
  simulation: {
    playerIds: ['red', 'green', 'blue', 'yellow'],
    variants: { basic: { variant: 'BASIC' }, pro: { variant: 'PRO' } },
    defaultVariant: 'basic',
  },
  demo: { label: '4 players, pro variant', config: { players: ['red', 'green', 'blue', 'yellow'], variant: 'PRO' } },
};
