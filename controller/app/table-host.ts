/**
 * One table of the controller: its current runtime, and the switch to a new one when a `new-game` request
 * changes the game or the seats (the stations stay; which seats play and which game they play change).
 */
import type { SeatConfig, TableConfig } from '../config/index.ts';
import { reject } from '../kernel/result.ts';
import type { GameId } from '../rules/engine.ts';
import type { RecoveredGame, RuntimeResult, TableRuntime, TableRuntimeDeps } from '../runtime/table-runtime.ts';
import { getEngine } from '../rules/games.ts';
import { buildTableRuntime, engineRules, seedSource, type TableParts } from './table-assembly.ts';

export interface NewGameParams {
  readonly game: GameId;
  readonly players: readonly string[];
  readonly seed?: number | string;
  readonly config?: Readonly<Record<string, unknown>>;
}

const COLOURS = ['red', 'green', 'blue', 'yellow'];

export class TableHost {
  private current: TableRuntime;
  private active: TableConfig;
  /** One seed sequence for every runtime of this table, so a new game never repeats the last one's seed. */
  private readonly nextSeed: () => number | string;

  constructor(readonly config: TableConfig, private readonly parts: TableParts, private readonly deps: TableRuntimeDeps) {
    this.active = config;
    this.nextSeed = seedSource(config);
    this.current = buildTableRuntime(config, parts, deps, this.nextSeed);
  }

  get runtime(): TableRuntime {
    return this.current;
  }

  /** The seats playing now (a subset of the configured ones after a `new-game` with fewer players). */
  get seats(): readonly SeatConfig[] {
    return this.active.seats;
  }

  /** Why a recovered game cannot continue on this table as configured now, or undefined when it can. */
  misfit(recovered: { readonly game: GameId; readonly config: { readonly players: readonly string[] } }): string | undefined {
    if (recovered.game !== this.config.mode) return `it is ${recovered.game} and the table is set up for ${this.config.mode}`;
    const missing = recovered.config.players.filter((p) => !this.config.seats.some((s) => s.id === p));
    return missing.length === 0 ? undefined : `its players ${missing.join(', ')} have no seat at the table any more`;
  }

  /**
   * Continues a recovered game (which must fit, see `misfit`), or starts a new one. The caller ends a logged
   * game that cannot continue first, so the new one can be logged.
   */
  start(recovered?: RecoveredGame & { readonly game: GameId }): void {
    if (recovered && this.misfit(recovered) === undefined) {
      const seats = recovered.config.players.map((p) => this.config.seats.find((s) => s.id === p)).filter((s) => s !== undefined);
      this.active = { ...this.config, seats };
      this.current = buildTableRuntime(this.active, this.parts, this.deps, this.nextSeed);
      this.current.start(recovered);
      return;
    }
    this.current.start();
  }

  newGame(params: NewGameParams): RuntimeResult {
    const seats: SeatConfig[] = [];
    for (const player of params.players) {
      const seat = this.config.seats.find((s) => s.id === player);
      if (!seat) return reject('UNKNOWN_SEAT', `${player} is not a seat of table ${this.config.id}`);
      seats.push(seat);
    }
    const colours = (params.config?.colours ?? {}) as Record<string, unknown>;
    const withColours = seats.map((s, i) => {
      const asked = colours[s.id];
      return { ...s, colour: (typeof asked === 'string' ? asked : s.colour ?? COLOURS[i] ?? 'red').toLowerCase() };
    });
    const { colours: _ignored, ...asked } = params.config ?? {};
    // The table's configured rules stay unless the request changes them: a table dealt by hand stays dealt by
    // hand, a small deck stays small (a referee's new game is the same table, not the engine's defaults).
    const rules = { ...this.config.rules, ...asked };
    const next: TableConfig = { ...this.config, mode: params.game, seats: withColours, rules };
    const seed = params.seed ?? this.nextSeed();
    // Check the new set-up with the engine before the running game is retired: a refused set-up changes nothing.
    const check = getEngine(params.game).setup({ ...engineRules(next), players: params.players }, seed);
    if (!check.ok) return reject(check.code, check.message);
    const runtime = buildTableRuntime(next, this.parts, this.deps, this.nextSeed);
    this.current.retire();
    const started = runtime.newGame({ seed });
    this.current = runtime;
    this.active = next;
    return started;
  }
}
