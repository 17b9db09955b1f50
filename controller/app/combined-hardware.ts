/**
 * Several hardware implementations behind the one interface: the seat stations (serial or simulated) and a
 * johnny-five buzzer hub, so a buzzer table can mix seat-station buzzers and hub buttons. Events and health
 * of all of them reach every listener; a lamp goes to whichever part knows the station.
 */
import type { CommandResult, LampPattern, SensorEvent, StationHealth, StationId, TableHardware } from '../hardware/interface.ts';
import { reject } from '../kernel/result.ts';

export class CombinedHardware implements TableHardware {
  constructor(
    private readonly parts: readonly TableHardware[],
    /** The stations a part serves (for lamps). */
    private readonly stationsOf: (part: TableHardware) => readonly StationId[],
  ) {}

  async start(): Promise<void> {
    await Promise.all(this.parts.map((p) => p.start()));
  }

  async stop(): Promise<void> {
    await Promise.all(this.parts.map((p) => p.stop()));
  }

  onEvent(listener: (event: SensorEvent) => void): () => void {
    const offs = this.parts.map((p) => p.onEvent(listener));
    return () => {
      for (const off of offs) off();
    };
  }

  onHealth(listener: (health: StationHealth) => void): () => void {
    const offs = this.parts.map((p) => p.onHealth(listener));
    return () => {
      for (const off of offs) off();
    };
  }

  health(): StationHealth[] {
    return this.parts.flatMap((p) => p.health());
  }

  setLamp(station: StationId, pattern: LampPattern): Promise<CommandResult> {
    const owner = this.parts.find((p) => this.stationsOf(p).includes(station)) ?? this.parts[0];
    if (owner === undefined) return Promise.resolve(reject('UNKNOWN_STATION', `no station ${station}`));
    return owner.setLamp(station, pattern);
  }
}
