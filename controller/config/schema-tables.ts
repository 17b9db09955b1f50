/**
 * The `tables:` section: what each table plays and which station each seat is. The rules engines' own options
 * sit in `rules:` as an open object: the engine validates them (validate-rules.ts), so they are documented
 * once, in docs/rules-engine.md, and not repeated here.
 */
import { Type } from '@sinclair/typebox';
import { GAMES, GAME_IDS, getGame } from '../rules/games.ts';
import { Choice, Ms, Nullable, Section } from './schema-helpers.ts';

/** What a table can be: one of the registered games (rules/games.ts), or a buzzer system. */
export const MODES: readonly string[] = [...GAME_IDS, 'buzzer'];
/** A game id or `buzzer`. */
export type Mode = string;

/** Seats per mode: each game's own limits (its plug-in), buzzer 1–32 (one hub's worth of buttons). */
export const SEAT_LIMITS: Readonly<Record<Mode, readonly [number, number]>> = {
  ...Object.fromEntries(GAMES.map((g) => [g.id, g.seats])),
  buzzer: [1, 32],
};

/** The modes whose game understands a table key (`pileStation`, `chips`): see each plug-in's `tableKeys`. */
export function modesWithKey(key: string): string[] {
  return GAME_IDS.filter((id) => getGame(id).tableKeys.includes(key));
}

/** The four Zapp Zerapp colours (the board's homes); other modes may use any display colour. */
export const GAME_COLOURS = ['red', 'green', 'blue', 'yellow'] as const;
const DISPLAY_COLOURS = [...GAME_COLOURS, 'orange', 'purple', 'pink', 'cyan', 'white', 'black'];

/** Ids that appear in MQTT topics and URLs: lowercase, digits and `-`. */
export function IdString(description: string) {
  return Type.String({
    pattern: '^[a-z0-9][a-z0-9-]{0,31}$',
    description,
    'x-message': 'must be 1–32 characters of a–z, 0–9 and "-", starting with a letter or digit (it is used in MQTT topics)',
  });
}

/** A station id as the firmware announces it (hardware/protocol.md: 1–16 of `[A-Za-z0-9._-]`). */
export function StationId(description: string, defaultText?: string) {
  return Type.String({
    pattern: '^[A-Za-z0-9._-]{1,16}$',
    description,
    'x-message': 'must be a station id: 1–16 characters of A–Z, a–z, 0–9, ".", "_" and "-" (the id in the station\'s banner)',
    ...(defaultText === undefined ? {} : { 'x-default-text': defaultText }),
  });
}

const Seat = Section({
  id: IdString('The seat\'s id: the player id in the game and in MQTT topics (`red`, `seat-1`, `ada`).'),
  name: Type.Optional(Type.String({
    minLength: 1, maxLength: 64, description: 'The name shown on the dashboard.', 'x-default-text': 'the seat id',
  })),
  station: Type.Optional(StationId(
    'The station this seat reads: the id in the seat station\'s boot banner, or a buzzer-hub button id.',
    'simulated hardware: `seat-N` (`tK-seat-N` on the K-th table, K ≥ 2); required on serial hardware',
  )),
  colour: Type.Optional(Type.String({
    pattern: `^(${DISPLAY_COLOURS.join('|')}|#[0-9a-fA-F]{6})$`,
    description: 'The seat\'s colour. Zapp Zerapp: the player\'s pieces (red, green, blue or yellow, one each); '
      + 'other modes: the dashboard colour.',
    'x-message': `must be one of ${DISPLAY_COLOURS.join(', ')} or #rrggbb`,
    'x-default-text': 'zapp-zerapp: red, green, blue, yellow in seat order; otherwise none',
  })),
  bot: Type.Optional(Type.Boolean({
    description: 'On simulated hardware: a bot plays this seat (false: a person plays it from the simulator panel).',
    'x-default-text': '`hardware.simulated.bots`',
  })),
}, { description: 'One seat: a player and the station in front of them.' });

const Team = Section({
  id: IdString('The team\'s id.'),
  name: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: 'The team\'s name.', 'x-default-text': 'the team id' })),
  seats: Type.Array(IdString('A seat id of this table.'), {
    minItems: 1, uniqueItems: true, description: 'The seats (buzzers) of the team.',
  }),
}, { description: 'A team: several buzzers that answer together.' });

const Points = Section({
  correct: Type.Number({ default: 1, description: 'Points for a correct answer (to the team, or the contestant without one).' }),
  wrong: Type.Number({ default: 0, description: 'Points for a wrong answer (negative to penalise).' }),
}, { default: {}, description: 'Scoring when the host marks an answer.' });

const Buzzer = Section({
  penaltyMs: Ms({ default: 250, description: 'A press before the buzzers are live (false start) locks that buzzer out for this long after the press.' }),
  lockout: Choice(['until-reset', 'auto-reset'] as const, {
    default: 'until-reset',
    description: '`until-reset`: the winner stays until the host resets or marks the answer; `auto-reset`: the next question is armed `autoResetMs` after a winner.',
  }),
  autoResetMs: Nullable(Ms({ description: '' }, 1), {
    default: null, description: 'With `lockout: auto-reset`: re-arm this long after a winner (required there, not allowed otherwise).',
  }),
  oneBuzzPerQuestion: Type.Boolean({
    default: true, description: 'A contestant (a team, with team lockout) that buzzed cannot buzz again in the same question after a wrong answer.',
  }),
  teamLockout: Type.Boolean({ default: true, description: 'When one member of a team buzzes, the team\'s other buzzers are locked: only the team\'s first press ranks.' }),
  readingTimerMs: Nullable(Ms({ description: '' }, 1), {
    default: null, description: 'Buzzers go live this long after arming (the question is read meanwhile; a press then is a false start); null: live at once.',
  }),
  afterWrong: Choice(['rearm', 'stay'] as const, {
    default: 'rearm', description: 'After an answer marked wrong: `rearm` the same question at once (the wrong one stays locked), or `stay` disarmed for the host.',
  }),
  points: Points,
  hostStation: Type.Optional(StationId(
    'A station (hub button or seat station) that is the host\'s button: it arms when idle, otherwise resets.', 'none',
  )),
  sound: Type.Boolean({ default: true, description: 'Beep on the winner (the buzzer hub\'s piezo, or the dashboard).' }),
  teams: Type.Array(Team, { default: [], description: 'Teams; empty: every buzzer plays for itself.' }),
}, { default: {}, description: 'Buzzer (lockout) mode (docs/buzzer.md). Only for `mode: buzzer`; names and colours come from `seats`.' });

/** A table's arbitration window when its configuration sets none (the benchmarks compare against it). */
export const DEFAULT_ARBITRATION_WINDOW_MS = 30;

const Timing = Section({
  arbitrationWindowMs: Ms({
    default: DEFAULT_ARBITRATION_WINDOW_MS,
    description: 'After a first press or play, wait this long for lines from other stations that may carry an '
      + 'earlier time (serial latency) before deciding who was first.',
  }),
}, { default: {}, description: 'Timing of the table runtime. The engines\' own timing keys are in `rules`.' });

export const Table = Section({
  id: IdString('The table\'s id, used in MQTT topics (`zaptable/table-1/…`).'),
  name: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: 'The name shown on the dashboard.', 'x-default-text': 'the table id' })),
  mode: Choice(MODES, { description: `What the table runs: a game (${GAME_IDS.map((id) => `\`${id}\``).join(', ')}) or \`buzzer\` (lockout system).` }),
  seats: Type.Array(Seat, {
    minItems: 1, maxItems: 32,
    description: `The seats in order of play: ${Object.entries(SEAT_LIMITS).map(([m, [lo, hi]]) => `${lo}–${hi} (${m})`).join(', ')}.`,
  }),
  pileStation: Type.Optional(StationId(
    `${modesWithKey('pileStation').join(' and ')} only: the pile station under the discard spot (Zip-Zap: start cards, plays when hands are registered; Killer-21: the turn's plays and the Killer).`,
    'none (simulated hardware with `hardware.simulated.pileStation`: `pile-1`, `tK-pile-1` on the K-th table)',
  )),
  chips: Type.Optional(Section({
    countBy: Choice(['tags', 'weight', 'off'] as const, {
      default: 'tags',
      description: '`tags`: tagged chips, counted by the seat pad\'s reader; `weight`: plain chips, counted by the load cell; `off`: not checked.',
    }),
    chipGrams: Type.Number({ exclusiveMinimum: 0, maximum: 1000, default: 8.5, description: 'Mass of one chip (g), for `countBy: weight`.' }),
    cardGrams: Type.Number({ minimum: 0, maximum: 100, default: 1.8, description: 'Mass of one tagged card lying on the pad with the chips (g).' }),
  }, {
    description: `${modesWithKey('chips').join(' and ')} only: how the life chips on each seat pad are counted. The engine's lives `
      + 'are authoritative; a count that disagrees raises a CHIPS_MISMATCH notice for the referee (docs/configuration.md).',
  })),
  rules: Type.Unsafe<Record<string, unknown>>({
    type: 'object', default: {},
    description: 'Options of the rules engine (e.g. `variant: PRO`), validated by the engine: see docs/rules-engine.md. '
      + 'Players and Zapp Zerapp colours come from `seats`. Not for buzzer mode.',
  }),
  seed: Type.Union([Type.Integer(), Type.String({ minLength: 1 })], {
    default: 'auto',
    description: 'Seed of the dice and shuffles: a number or text to replay a game, or `auto` (fresh each game, logged). '
      + 'A fixed seed is the first game\'s of each run; each later game of the run takes the next derived seed (`"<seed>/2"`, '
      + '`"<seed>/3"`, …, logged), so a new game never deals the same hands again.',
    'x-message': 'must be a whole number, a non-empty string or auto',
  }),
  timing: Timing,
  buzzer: Buzzer,
}, { description: 'A table run by this controller.' });
