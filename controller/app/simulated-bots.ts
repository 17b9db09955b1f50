/** Bots on the simulated table's seats marked `bot` (the demo): buzzer bots and game bots. */
import type { ZaptableConfig } from '../config/index.ts';
import type { SimulatedTable } from '../hardware/simulated/index.ts';
import { BotDriver } from './bots/bot-driver.ts';
import { BuzzerBots } from './bots/buzzer-bots.ts';
import type { TableSet } from './table-set.ts';

/** Starts the bots of every table with bot seats; returns them (to stop). */
export function startBots(config: ZaptableConfig, table: SimulatedTable, tables: TableSet): { stop(): void }[] {
  const started: { stop(): void }[] = [];
  if (!config.hardware.simulated.bots) return started;
  for (const { config: t, runtime } of tables.buzzers.values()) {
    const seats = t.seats.filter((s) => s.bot && table.names().includes(s.station));
    if (seats.length === 0) continue;
    const bots = new BuzzerBots({
      table, runtime, stations: seats.map((s) => s.station), speed: config.hardware.simulated.speed, seed: t.id,
    });
    bots.start();
    started.push(bots);
  }
  for (const host of tables.hosts.values()) {
    const seats = host.config.seats.filter((s) => s.bot).map((s) => ({ player: s.id, station: s.station }));
    if (seats.length === 0) continue;
    const driver = new BotDriver({
      table, seats, runtime: () => host.runtime, allStations: host.config.seats.map((s) => s.station),
      ...(host.config.pileStation === undefined ? {} : { pileStation: host.config.pileStation }),
      speed: config.hardware.simulated.speed, seed: host.config.id,
      newGame: () => host.runtime.newGame({}),
    });
    driver.start();
    started.push(driver);
  }
  return started;
}
