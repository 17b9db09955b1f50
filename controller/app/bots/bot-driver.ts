/**
 * Runs the bots of one simulated table: every bot seat gets a turn at a random moment (0.4–1.2 s apart, scaled by
 * `speed`), looks at the game and acts through the simulated hardware. When a game ends, a new one starts after a
 * pause, so the demo keeps playing.
 */
import type { SimulatedTable } from '../../hardware/simulated/index.ts';
import { nextInt, seedRng, type Rng } from '../../kernel/random.ts';
import { getGame } from '../../rules/games.ts';
import { itemKey, type Item } from '../../runtime/registry/items.ts';
import type { TableRuntime } from '../../runtime/table-runtime.ts';
import { runSimulatorOp } from '../simulator.ts';
import type { BotContext, BotSeat } from '../../runtime/games/bot-context.ts';
import { getTablePlugin } from '../../runtime/games/tables.ts';

export interface BotDriverOptions {
  readonly table: SimulatedTable;
  /** The table's current runtime (it changes when a new game changes the seats or the game). */
  readonly runtime: () => TableRuntime;
  readonly seats: readonly BotSeat[];
  /** Every seat's station (bots wait for all pads to be clear before rolling). */
  readonly allStations: readonly string[];
  /** The station under the discard pile, where bots play some of their cards. */
  readonly pileStation?: string;
  readonly speed: number;
  readonly seed: string | number;
  /** Starts the next game after one has ended. */
  readonly newGame: () => void;
}

export class BotDriver {
  private rng: Rng;
  private timer: NodeJS.Timeout | undefined;
  /** What the bots put on each pad (and have not lifted), in order. */
  private readonly pads = new Map<string, Item[]>();
  private overSince: number | undefined;
  /** When the bots first saw the pending tie (wall ms), while one is pending. */
  private tieSince: number | undefined;

  constructor(private readonly options: BotDriverOptions) {
    this.rng = seedRng(`bots:${String(options.seed)}`);
  }

  start(): void {
    this.schedule();
  }

  stop(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }

  private schedule(): void {
    const [delay, rng] = nextInt(this.rng, 800);
    this.rng = rng;
    this.timer = setTimeout(() => {
      this.tick();
      if (this.timer) this.schedule();
    }, (400 + delay) / this.options.speed);
    this.timer.unref();
  }

  private tick(): void {
    const runtime = this.options.runtime();
    const state = runtime.engineState();
    const engine = getGame(runtime.options.game).engine;
    const game = getTablePlugin(runtime.options.game);
    if (engine.result(state).over) {
      this.overSince ??= Date.now();
      if (Date.now() - this.overSince > 8000 / this.options.speed) {
        this.overSince = undefined;
        this.clearPads();
        this.options.newGame();
      }
      return;
    }
    this.overSince = undefined;
    const [index, rng] = nextInt(this.rng, this.options.seats.length);
    this.rng = rng;
    const seat = this.options.seats[index];
    if (!seat) return;
    this.tieSince = game.refereePending(state) ? this.tieSince ?? Date.now() : undefined;
    const ctx = this.context(runtime);
    game.bot(state, seat, ctx, engine.legalActions(state) as unknown as Readonly<Record<string, unknown>>[]);
  }

  private clearPads(): void {
    for (const [station, items] of this.pads) for (const item of items) runSimulatorOp(this.options.table, station, 'lift', item);
    this.pads.clear();
  }

  private context(runtime: TableRuntime): BotContext {
    const table = this.options.table;
    const bots = new Set(this.options.seats.map((s) => s.player));
    return {
      place: (station, item) => {
        if (runSimulatorOp(table, station, 'place', item).ok) this.pads.set(station, [...this.pads.get(station) ?? [], item]);
      },
      lift: (station, item) => {
        runSimulatorOp(table, station, 'lift', item);
        const left = (this.pads.get(station) ?? []).filter((i) => itemKey(i) !== itemKey(item));
        if (left.length === 0) this.pads.delete(station);
        else this.pads.set(station, left);
      },
      tap: (station, item) => runSimulatorOp(table, station, 'tap', item),
      press: (station) => runSimulatorOp(table, station, 'press'),
      act: (action) => runtime.requestAction(action, 'bot', false),
      padItem: (station) => this.pads.get(station)?.at(-1),
      itemsOn: (station) => this.pads.get(station) ?? [],
      seatIndex: (player) => runtime.options.players.indexOf(player),
      ...(this.options.pileStation === undefined ? {} : { pileStation: this.options.pileStation }),
      tieWaitedMs: this.tieSince === undefined ? 0 : (Date.now() - this.tieSince) * this.options.speed,
      isOnAnyPad: (barrel) => [...this.pads.values()].some((items) => items.some((i) => i.kind === 'barrel' && i.value === barrel)),
      allPadsClear: () => this.options.allStations.every((s) => !this.pads.has(s)),
      isBot: (player) => bots.has(player),
      chance: (p) => {
        const [x, rng] = nextInt(this.rng, 1000);
        this.rng = rng;
        return x < p * 1000;
      },
      pick: <T>(items: readonly T[]): T | undefined => {
        if (items.length === 0) return undefined;
        const [i, rng] = nextInt(this.rng, items.length);
        this.rng = rng;
        return items[i];
      },
    };
  }
}
