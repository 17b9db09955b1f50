/**
 * What the notices page and the station page show from before they were opened: the dashboard keeps, in memory
 * and bounded, each table's last NOTICE events and each station's health over time. It is fed by the hub's
 * messages (the public topics it already follows: `<table>/events` and `<table>/health/<station>`, docs/mqtt.md),
 * so it needs nothing new from the controller; it starts empty when the dashboard starts (a restart forgets it),
 * which the pages say. The event log (SQLite) keeps no health, and its notices are read with `zaptable log`.
 */
import { sameReading, sampleOf, type HealthSample } from '../web/health-samples.ts';
import type { HubMessage, MqttHub } from './mqtt-hub.ts';

export type { HealthSample };

export interface HistoryOptions {
  /** NOTICE events kept per table. Default 100. */
  readonly noticesPerTable?: number;
  /** Health samples kept per station. Default 720: an hour at one a 5 s. */
  readonly samplesPerStation?: number;
  /**
   * A sample that changes nothing but its time is kept at most this often, ms. Default 5000: health is
   * republished at every pad change and clock sample, which would fill the window in minutes.
   */
  readonly quietSampleMs?: number;
  readonly now?: () => number;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function pushBounded<T>(list: T[], item: T, max: number): void {
  list.push(item);
  if (list.length > max) list.splice(0, list.length - max);
}

export class TableHistory {
  private readonly notices = new Map<string, unknown[]>();
  private readonly samples = new Map<string, Map<string, HealthSample[]>>();
  private readonly now: () => number;
  private readonly unsubscribe: () => void;

  constructor(hub: MqttHub, private readonly options: HistoryOptions = {}) {
    this.now = options.now ?? Date.now;
    this.unsubscribe = hub.subscribe((m) => {
      this.take(m);
    });
    // What the hub already holds (a hub started before this was made): the retained health, the recent events.
    for (const m of hub.snapshot(undefined, 200)) this.take(m);
  }

  stop(): void {
    this.unsubscribe();
  }

  /** The table's notices, newest first. */
  noticesOf(table: string): readonly unknown[] {
    return [...(this.notices.get(table) ?? [])].reverse();
  }

  /** Every station with samples, and each one's samples, oldest first. */
  healthOf(table: string): ReadonlyMap<string, readonly HealthSample[]> {
    return this.samples.get(table) ?? new Map();
  }

  private take(m: HubMessage): void {
    const { parsed } = m;
    if (parsed.kind === 'events' && isRecord(m.payload) && m.payload.type === 'NOTICE') {
      let list = this.notices.get(parsed.table);
      if (list === undefined) this.notices.set(parsed.table, list = []);
      // QoS 1 may deliver an event twice: the same (epoch, seq) is one notice.
      const { seq, epoch } = m.payload;
      if (list.some((n) => isRecord(n) && n.seq === seq && n.epoch === epoch)) return;
      pushBounded(list, m.payload, this.options.noticesPerTable ?? 100);
    } else if (parsed.kind === 'health' && isRecord(m.payload)) {
      let table = this.samples.get(parsed.table);
      if (table === undefined) this.samples.set(parsed.table, table = new Map<string, HealthSample[]>());
      let list = table.get(parsed.station);
      if (list === undefined) table.set(parsed.station, list = []);
      const sample = sampleOf(m.payload, this.now());
      if (sample === undefined) return;
      const last = list[list.length - 1];
      if (last !== undefined && sameReading(last, sample) && sample.at - last.at < (this.options.quietSampleMs ?? 5000)) return;
      pushBounded(list, sample, this.options.samplesPerStation ?? 720);
    }
  }
}
