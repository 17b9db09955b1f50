/**
 * The table's answers to MQTT requests (docs/mqtt.md): each turns into a runtime call, and every refusal keeps
 * its stable code (the rules engines' rejection codes pass through unchanged).
 */
import type { SimulatedTable } from '../hardware/simulated/index.ts';
import { reject } from '../kernel/result.ts';
import type { ZappState } from '../rules/zapp-zerapp/index.ts';
import type { ZipZapState } from '../rules/zip-zap/index.ts';
import type { RuntimeResult } from '../runtime/table-runtime.ts';
import type { ControllerTransport, HandlerResult, RequestHandler, RequestName } from '../transport/index.ts';
import { GAMES, getGame } from '../rules/games.ts';
import { simulateAndWait } from './simulate-outcome.ts';
import { prepareSimulatorOp, runSimulatorOp } from './simulator.ts';
import { stationsOf } from './table-assembly.ts';
import type { TableHost } from './table-host.ts';

/**
 * The requests that belong to some games only (each plug-in's `requests`): sent to a table playing another
 * game, they answer NOT_AVAILABLE.
 */
const GAMES_OF_REQUEST: ReadonlyMap<string, readonly string[]> = new Map(
  [...new Set(GAMES.flatMap((g) => g.requests))]
    .map((name) => [name, GAMES.filter((g) => g.requests.includes(name)).map((g) => g.id)]),
);

export interface HandlerDeps {
  readonly transport: ControllerTransport;
  readonly hosts: ReadonlyMap<string, TableHost>;
  /** The simulated hardware, when the table is simulated. */
  readonly simulated?: SimulatedTable;
  /** The table's last published event number (the `seq` of `Applied` answers). */
  readonly lastSeq: (table: string) => number;
  /** The stations of each buzzer table (its buzzers and the host's button), so `simulate` can press them. */
  readonly buzzerStations?: ReadonlyMap<string, readonly string[]>;
  /** Bots play the seats marked `bot` (hardware.simulated.bots): their hands are nobody's to see. */
  readonly botsPlay?: boolean;
}

function answer<N extends RequestName>(result: RuntimeResult, data: () => Parameters<typeof ok<N>>[0]): HandlerResult<N> {
  return result.ok ? ok<N>(data()) : reject(result.code, result.message);
}

function ok<N extends RequestName>(data: Extract<HandlerResult<N>, { ok: true }>['data']): HandlerResult<N> {
  return { ok: true, data };
}

export function registerRequestHandlers(deps: HandlerDeps): void {
  const { transport, hosts } = deps;
  const host = (table: string): TableHost => {
    const found = hosts.get(table);
    if (!found) throw new Error(`no table ${table}`);
    return found;
  };
  // Game requests on a table that runs no game (a buzzer table), or a request of the other game, are answered
  // NOT_AVAILABLE, not a failure, and reach no runtime.
  const on = <N extends RequestName>(name: N, handler: RequestHandler<N>): void => {
    transport.onRequest(name, async (p, c) => {
      const found = hosts.get(c.table);
      if (!found) return reject('NOT_AVAILABLE', `table ${c.table} runs no game: ${name} does not apply`);
      const games = GAMES_OF_REQUEST.get(name);
      const playing = found.runtime.options.game;
      if (games !== undefined && !getGame(playing).requests.includes(name)) {
        return reject('NOT_AVAILABLE', `table ${c.table} plays ${playing}: ${name} is a ${games.join(' or ')} request`);
      }
      return handler(p, c);
    });
  };
  const applied = (table: string) => ({ seq: deps.lastSeq(table) });
  const act = (table: string, action: Record<string, unknown> & { type: string }, by: string): RuntimeResult =>
    host(table).runtime.requestAction(action, by, false);

  on('new-game', async (p, c) => {
    // A table is set up for one game (its stations, pads and rules); switching would leave a game in the log
    // that the table, as configured, cannot continue after a restart.
    const mode = host(c.table).config.mode;
    if (p.game !== mode) {
      return reject('NOT_AVAILABLE', `table ${c.table} is set up for ${mode}; change its mode in the configuration to play ${p.game}`);
    }
    const options = { ...(p.seed === undefined ? {} : { seed: p.seed }), ...(p.config ? { config: p.config } : {}) };
    const result = host(c.table).newGame({ game: p.game, players: p.players, ...options });
    return Promise.resolve(answer<'new-game'>(result, () => ({ ...applied(c.table), game: p.game })));
  });
  on('action', async (p, c) => Promise.resolve(answer<'action'>(act(c.table, p.action, c.identity.id), () => applied(c.table))));
  on('roll', async (p, c) => {
    const result = act(c.table, { type: 'roll', ...(p.player === undefined ? {} : { player: p.player }) }, c.identity.id);
    const dice = (host(c.table).runtime.engineState() as Partial<ZappState>).dice ?? { d1: 0, d2: 0 };
    return Promise.resolve(answer<'roll'>(result, () => ({ ...applied(c.table), d1: dice.d1, d2: dice.d2 })));
  });
  on('enter-dice', async (p, c) => Promise.resolve(answer<'enter-dice'>(
    act(c.table, { type: 'enter-dice', d1: p.d1, d2: p.d2, ...(p.player === undefined ? {} : { player: p.player }) }, c.identity.id),
    () => applied(c.table),
  )));
  on('move', async (p, c) => Promise.resolve(answer<'move'>(act(c.table, { type: 'move', ...p }, c.identity.id), () => applied(c.table))));
  on('declare-stuck', async (p, c) => {
    // "Nobody can play" on a table whose engine knows the hands (ORACLE stuck detection) is the engine's own
    // `announce-stuck`: `declare-stuck` is only for HUMAN/TIMEOUT and was always refused there
    // (WRONG_STUCK_DETECTION). The engine still checks the hands: HIDDEN_REASON while someone can follow.
    const detection = (host(c.table).runtime.engineState() as Partial<ZipZapState>).config?.stuckDetection;
    const action = detection === 'ORACLE'
      ? { type: 'announce-stuck' }
      : { type: 'declare-stuck', ...(p.player === undefined ? {} : { player: p.player }) };
    return Promise.resolve(answer<'declare-stuck'>(act(c.table, action, c.identity.id), () => applied(c.table)));
  });
  on('next-round', async (_p, c) => Promise.resolve(answer<'next-round'>(act(c.table, { type: 'next-round' }, c.identity.id), () => applied(c.table))));
  on('undo', async (p, c) => Promise.resolve(answer<'undo'>(host(c.table).runtime.undo(c.identity.id, p.reason), () => applied(c.table))));
  on('correct', async (p, c) => Promise.resolve(answer<'correct'>(
    host(c.table).runtime.requestAction(p.action, `${c.identity.id}: ${p.reason}`, true),
    () => applied(c.table),
  )));
  on('remove-station', async (p, c) => {
    if (!stationsOf(host(c.table).config).includes(p.station)) {
      return reject('UNKNOWN_STATION', `${p.station} is not a station of table ${c.table}`);
    }
    const result = host(c.table).runtime.removeStation(p.station, c.identity.id);
    if (result.ok) await transport.table(c.table).clearHealth(p.station);
    return answer<'remove-station'>(result, () => ({ station: p.station }));
  });
  const simulated = deps.simulated;
  if (simulated) {
    // The hand of a seat that the person at the simulator plays: they hold those cards, so the panel may show
    // them (only with the token; the dashboard relays no request without it). A bot's hand stays hidden.
    on('simulated-hand', async (p, c) => {
      const found = host(c.table);
      const seat = found.seats.find((s) => s.station === p.station);
      if (seat === undefined) return reject('NOT_A_SEAT', `${p.station} is not a seat playing at table ${c.table}`);
      if (seat.bot && deps.botsPlay === true) return reject('BOT_SEAT', `a bot plays ${seat.id}: its hand stays hidden`);
      const hand = getGame(found.runtime.options.game).knownHand?.(found.runtime.engineState(), seat.id);
      if (hand === undefined) return reject('NOT_AVAILABLE', `${found.runtime.options.game} has no hands`);
      const data = { station: p.station, player: seat.id, known: hand.complete, cards: [...hand.cards] };
      return Promise.resolve({ ok: true, data });
    });
    // Also for buzzer tables: the simulator panel presses their buttons.
    transport.onRequest('simulate', async (p, c) => {
      const game = hosts.get(c.table);
      const stations = game === undefined ? deps.buzzerStations?.get(c.table)
        : game.config.seats.map((s) => s.station).concat(game.config.pileStation ?? []);
      if (stations === undefined) return reject('NOT_AVAILABLE', `table ${c.table} has no simulated stations`);
      if (!stations.includes(p.station)) {
        return reject('UNKNOWN_STATION', `${p.station} is not a station of table ${c.table}`);
      }
      if (game === undefined) {
        // A buzzer table's buttons: the press is answered once sent (the buzzer runtime has its own answers).
        const result = runSimulatorOp(simulated, p.station, p.op, p.item, p.grams);
        return answer<'simulate'>(result, () => ({ station: p.station, outcome: 'done', message: `${p.station}: ${p.op} sent`, events: [] }));
      }
      // A game table answers once it has handled what the op made the station send (simulate-outcome.ts).
      const runtime = game.runtime;
      const prepared = prepareSimulatorOp(simulated, p.station, p.op, p.item, p.grams, runtime.padTags(p.station));
      if (!prepared.ok) return prepared;
      const outcome = await simulateAndWait({
        runtime, game: runtime.options.game, station: p.station, op: p.op,
        uids: prepared.uids, hasScale: prepared.hasScale, act: prepared.act, offline: prepared.offline,
      });
      if (!outcome.ok) return outcome;
      const { outcome: verdict, message, events } = outcome;
      return { ok: true, data: { station: p.station, seq: deps.lastSeq(c.table), outcome: verdict, message, events } };
    });
  }
}
