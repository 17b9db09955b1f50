/**
 * The simulated table: N seat stations and an optional pile station, each a `SimulatedStation` (our
 * firmware's behaviour) behind a `SimulatedWire` (USB-serial delays) on a port of serialport's mock binding.
 * The controller reaches it through the **real** serial driver (`SerialStations`): every banner, event and
 * reply is a protocol line that parser-readline splits and the codec decodes, exactly as with hardware.
 *
 * A script (a test, the demo, the dashboard's simulator panel) plays the physical world: it places and
 * lifts barrels, taps cards, presses buttons, pulls and re-plugs USB cables, resets boards and injects line
 * noise; and it reads back what the driver commanded (lamps, every command line received).
 *
 * Stations are addressed by the name they were created with (their initial id); an `id set` changes what
 * the station announces after its next restart, not its name here.
 */
import type { FaultDevice, StationKind } from '../../protocol/index.ts';
import { systemClock, type Clock } from '../interface.ts';
import { SerialStations, type SerialStationsOptions } from '../serial/serial-stations.ts';
import { systemScheduler, type Scheduler } from '../serial/timers.ts';
import { unrefScheduler } from './real-time.ts';
import { createMockPort, SimulatedBinding, type SimulatedPortBinding } from './simulated-binding.ts';
import {
  DEFAULT_STATION_CONFIG, SimulatedStation,
  type HappeningPhysics, type LampState, type PlacedItem, type ReceivedCommand, type SimulatedStationConfig,
} from './simulated-station.ts';
import { DEFAULT_WIRE_TIMING, SimulatedWire, type WireTiming } from './simulated-wire.ts';

/** One station of the table. Everything but `id` has a default. */
export interface SimulatedStationSpec extends Partial<Omit<SimulatedStationConfig, 'id' | 'kind'>> {
  /** The station's name here and its initial id. */
  readonly id: string;
  /** Default `seat`. */
  readonly kind?: StationKind;
  /** Port path. Default `<pathPrefix><id>`. */
  readonly path?: string;
  /** Plugged in when the table starts. Default true. */
  readonly plugged?: boolean;
}

export interface SimulatedTableOptions {
  /** Seat stations `seat-1` … `seat-N` (ignored when `stations` is given). Default 4. */
  readonly seats?: number;
  /** A pile station `pile` as well (ignored when `stations` is given). Default false. */
  readonly pile?: boolean;
  /** The stations, explicitly. */
  readonly stations?: readonly SimulatedStationSpec[];
  /** Defaults for every station (e.g. a short `bootloaderMs` in tests). */
  readonly stationDefaults?: Partial<Omit<SimulatedStationConfig, 'id' | 'kind'>>;
  /** Controller time. Default: the system clock. */
  readonly clock?: Clock;
  /** Timers of the simulated world. Default: real time, `unref`'d. */
  readonly scheduler?: Scheduler;
  /** Seeds the link delays and load-cell noise. Default 1. */
  readonly seed?: string | number;
  readonly wire?: Partial<WireTiming>;
  /** Prefix of the port paths. Default `/dev/zaptable-sim/<n>/` (unique per table in the process). */
  readonly pathPrefix?: string;
  /** USB vendor id the ports report (for discovery). Default `2341` (Arduino). */
  readonly vendorId?: string;
}

/** A press of the ZAP button. */
export interface ButtonPress {
  /** How long the button is held, ms. Default 120. */
  readonly holdMs?: number;
  /** Press when the station's `micros()` reaches this value; `BTN+` carries it exactly. Default: now. */
  readonly atDeviceUs?: number;
  /** Without `atDeviceUs`: from the edge to its stamp in the interrupt, µs. Default 0. */
  readonly stampDelayUs?: number;
}

interface Entry {
  readonly name: string;
  readonly station: SimulatedStation;
  readonly wire: SimulatedWire;
  path: string;
  plugged: boolean;
  port: SimulatedPortBinding | undefined;
}

let tableCount = 0;

export class SimulatedTable {
  /** The binding to give the driver. */
  readonly binding: SimulatedBinding;
  /** The USB vendor id the ports report. */
  readonly vendorId: string;
  private readonly options: SimulatedTableOptions;
  private readonly entries = new Map<string, Entry>();
  private readonly created = new Set<string>();
  private readonly pathPrefix: string;
  private started = false;

  constructor(options: SimulatedTableOptions = {}) {
    this.options = options;
    this.vendorId = options.vendorId ?? '2341';
    this.pathPrefix = options.pathPrefix ?? `/dev/zaptable-sim/${++tableCount}/`;
    this.binding = new SimulatedBinding({
      isPlugged: (path) => this.entryAt(path)?.plugged === true,
      opened: (path, port) => {
        const entry = this.entryAt(path);
        if (entry === undefined) return;
        entry.port = port;
        entry.station.portOpened();
      },
      closed: (path, port) => {
        const entry = this.entryAt(path);
        if (entry?.port === port) entry.port = undefined;
      },
      received: (path, bytes) => {
        this.entryAt(path)?.wire.hostWrote(bytes);
      },
    });
  }

  // ----------------------------------------------------------------------------------- lifecycle

  /** Creates the ports and plugs in the stations (they boot and print their banner). Call once. */
  start(): void {
    if (this.started) return;
    this.started = true;
    const clock = this.options.clock ?? systemClock;
    const scheduler = this.options.scheduler ?? unrefScheduler;
    const seed = String(this.options.seed ?? 1);
    for (const spec of this.specs()) {
      const config: SimulatedStationConfig = {
        ...DEFAULT_STATION_CONFIG, seed, ...this.options.stationDefaults, ...withoutUndefined(spec), id: spec.id, kind: spec.kind ?? 'seat',
      };
      const wire: SimulatedWire = new SimulatedWire({
        clock, scheduler, timing: { ...DEFAULT_WIRE_TIMING, ...this.options.wire }, seed: `${seed}:wire:${spec.id}`,
        toDevice: (bytes) => {
          station.receive(bytes);
        },
        toHost: (bytes) => {
          entry.port?.emitData(bytes);
        },
      });
      const station: SimulatedStation = new SimulatedStation(config, {
        clock, scheduler, output: (bytes) => {
          wire.deviceWrote(bytes);
        },
      });
      const entry: Entry = { name: spec.id, station, wire, path: spec.path ?? `${this.pathPrefix}${spec.id}`, plugged: false, port: undefined };
      this.entries.set(spec.id, entry);
      if (spec.plugged !== false) this.plugIn(spec.id);
    }
  }

  /** Powers every station off and cancels the world's timers. The driver is stopped separately. */
  stop(): void {
    for (const entry of this.entries.values()) {
      entry.station.dispose();
      entry.wire.clear();
    }
  }

  // --------------------------------------------------------------------------------------- layout

  /** The stations' names. */
  names(): string[] {
    return [...this.entries.keys()];
  }

  /** Every station's current port path. */
  paths(): string[] {
    return [...this.entries.values()].map((e) => e.path);
  }

  /** A station's current port path. */
  path(station: string): string {
    return this.entry(station).path;
  }

  /** The station model itself (for details the table does not wrap). */
  station(station: string): SimulatedStation {
    return this.entry(station).station;
  }

  // --------------------------------------------------------------------------- the physical world

  /**
   * Puts an item on a pad: `SLAP` at once on a station with a slap sensor, `TAG+` at the first poll after the
   * tag's power-up, then `W <grams> S` once the mass has settled.
   */
  placeItem(station: string, item: PlacedItem): void {
    this.entry(station).station.placeItem(item);
  }

  /** Lifts an item: `TAG-` after two missed polls (stamped with the first), the weight settles back. */
  liftItem(station: string, uid: string): void {
    this.entry(station).station.liftItem(uid);
  }

  /**
   * Taps a card on the pad for `dwellMs` (default 300): `SLAP` (with a slap sensor, unless `slap` is false),
   * `TAG+`, then `TAG-`.
   */
  tapCard(station: string, uid: string, dwellMs = 300, options: { readonly slap?: boolean } & HappeningPhysics = {}): void {
    const { slap, ...physics } = options;
    this.entry(station).station.tapCard(uid, dwellMs, slap ?? true, physics);
  }

  /** Holds a tag `heightMm` above a pad (no mass, no slap): read within the station's `readRangeMm`. */
  holdTag(station: string, uid: string, heightMm: number): void {
    this.entry(station).station.holdTag(uid, heightMm);
  }

  /** Knocks on a pad (no tag): `SLAP` on a station with a slap sensor, which no `TAG+` follows. */
  knock(station: string): void {
    this.entry(station).station.knock();
  }

  /** Presses a seat's ZAP button: `BTN+` stamped at the press, `BTN-` at the release. */
  pressButton(station: string, press: ButtonPress = {}): void {
    const physics = press.stampDelayUs === undefined ? {} : { stampDelayUs: press.stampDelayUs };
    this.entry(station).station.pressButton(press.holdMs ?? 120, press.atDeviceUs, physics);
  }

  /** Breaks or repairs a sensor (`FAULT+`/`FAULT-`). */
  setSensorFault(station: string, device: FaultDevice, broken: boolean): void {
    this.entry(station).station.setSensorFault(device, broken);
  }

  /** Pulls the USB cable: the port disconnects, the station loses power, bytes in transit are lost. */
  unplug(station: string): void {
    const entry = this.entry(station);
    entry.plugged = false;
    entry.station.powerOff();
    entry.wire.clear();
    entry.port?.unplug();
    entry.port = undefined;
  }

  /** Plugs the cable in (at `path`, if given: the station moved to another port). The station boots. */
  plugIn(station: string, options: { readonly path?: string } = {}): void {
    const entry = this.entry(station);
    if (options.path !== undefined) entry.path = options.path;
    if (!this.created.has(entry.path)) {
      this.created.add(entry.path);
      createMockPort(entry.path, {
        // record: false — the mock would append every byte the host writes to one Buffer (a Buffer.concat per
        // write) for as long as the table runs; nothing reads it (`commands()` has the decoded lines, bounded).
        echo: false, record: false, vendorId: this.vendorId, productId: '0043', manufacturer: 'zaptable simulated station',
      });
    }
    entry.plugged = true;
    entry.station.powerOn();
  }

  /** Resets a station (reset button): bootloader, new banner with boot counter +1, `micros()` from 0. */
  reset(station: string): void {
    this.entry(station).station.reset();
  }

  /**
   * Sends raw bytes from the station's side (a corrupted line, an overlong one, binary noise), exactly as
   * given (include the `\n` for a complete line). `chunkSizes` splits them into separate reads on the host.
   */
  injectGarbage(station: string, bytes: string | Buffer, options: { readonly chunkSizes?: readonly number[] } = {}): void {
    this.entry(station).wire.deviceWrote(bytes, options.chunkSizes);
  }

  /**
   * The next `n` lines the station sends are lost on the wire: only event lines by default (the driver
   * sees a sequence gap), or any line (`only: 'any'`: a lost reply makes its command time out).
   */
  dropLines(station: string, n: number, options: { readonly only?: 'events' | 'any' } = {}): void {
    this.entry(station).wire.dropNextLines(n, options.only ?? 'events');
  }

  // ------------------------------------------------------------------------------------ readback

  /** The station's `micros()` now. */
  micros(station: string): number {
    return this.entry(station).station.micros();
  }

  /** The lamp as the driver last commanded it, and whether it is lit now. */
  lamp(station: string): LampState {
    return this.entry(station).station.lampState();
  }

  /** Every command line the station read, decoded (or refused with a code). */
  commands(station: string): readonly ReceivedCommand[] {
    return this.entry(station).station.received();
  }

  /** The host's port object for the station while open. */
  port(station: string): SimulatedPortBinding | undefined {
    return this.entry(station).port;
  }

  private specs(): SimulatedStationSpec[] {
    if (this.options.stations !== undefined) return [...this.options.stations];
    const seats = this.options.seats ?? 4;
    const specs: SimulatedStationSpec[] = Array.from({ length: seats }, (_, i) => ({ id: `seat-${i + 1}`, kind: 'seat' }));
    if (this.options.pile === true) specs.push({ id: 'pile', kind: 'pile' });
    return specs;
  }

  private entry(station: string): Entry {
    const entry = this.entries.get(station);
    // A script naming a station that does not exist is a programmer error.
    if (entry === undefined) throw new Error(`simulated table: no station "${station}" (have ${this.names().join(', ')})`);
    return entry;
  }

  private entryAt(path: string): Entry | undefined {
    for (const entry of this.entries.values()) if (entry.path === path) return entry;
    return undefined;
  }
}

function withoutUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}

/** Options of {@link createSimulatedHardware}. */
export interface SimulatedHardwareOptions extends Omit<SimulatedTableOptions, 'clock' | 'scheduler'> {
  /** Time for both the table and the driver: a `VirtualTime` in tests. Default: real time. */
  readonly time?: Clock & Scheduler;
  /** Driver options over the defaults (logger, timing, ports …). */
  readonly driver?: Partial<SerialStationsOptions>;
}

/** The driver and the table it reads. */
export interface SimulatedHardware {
  readonly hardware: SerialStations;
  readonly table: SimulatedTable;
}

/**
 * A simulated table and the real serial driver reading it. The driver opens the stations' paths and, by
 * discovery (the ports' USB vendor id), any path a station is plugged into later. Start with
 * `await hardware.start()`; stop with `await hardware.stop()` and `table.stop()`.
 */
export function createSimulatedHardware(options: SimulatedHardwareOptions = {}): SimulatedHardware {
  const { time, driver, ...tableOptions } = options;
  const table = new SimulatedTable({
    ...tableOptions, clock: time ?? systemClock, scheduler: time ?? unrefScheduler,
  });
  table.start();
  const hardware = new SerialStations({
    ports: table.paths(),
    discovery: { vendorIds: [table.vendorId], rescanMs: 1000 },
    binding: table.binding,
    clock: time ?? systemClock,
    scheduler: time ?? systemScheduler,
    ...driver,
  });
  return { hardware, table };
}
