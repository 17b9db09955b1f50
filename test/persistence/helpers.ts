/**
 * Shared by the persistence tests: real SQLite files in a fresh temporary folder, and a logged bot game.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'vitest';
import type { SensorEvent } from '../../controller/hardware/interface.ts';
import { EventLog, type EventLogOptions } from '../../controller/persistence/index.ts';

const root = mkdtempSync(path.join(tmpdir(), 'zaptable-persistence-'));
let files = 0;

/** A path for a new log file (its folder does not exist yet: open must create it). */
export function newFile(name = 'log'): string {
  files++;
  return path.join(root, `${name}-${files}`, 'zaptable.db');
}

export function openLog(file: string, options: EventLogOptions = {}): EventLog {
  const opened = EventLog.open(file, options);
  if (!opened.ok) expect.fail(`${opened.code}: ${opened.message}`);
  return opened.log;
}

interface PressTimes {
  readonly deviceUs: number;
  readonly rawUs: number;
  readonly epoch: number;
  /** The button's interrupt latency: how long before the stamp the edge may have been. Default 80. */
  readonly beforeUs: number;
}

/** A device-stamped button press as hardware/interface.ts's SensorEvent has it. */
export function press(station: string, hostUs: number, uncertaintyUs = 100, extra: Partial<PressTimes> = {}): SensorEvent {
  const deviceUs = extra.deviceUs ?? hostUs - 1000;
  return {
    station, kind: 'button-pressed', button: 'zap', seq: 1,
    time: {
      source: 'device', epoch: extra.epoch ?? 1, deviceUs, rawUs: extra.rawUs ?? deviceUs % 2 ** 32, hostUs, uncertaintyUs,
      beforeUs: extra.beforeUs ?? 80, afterUs: 0,
    },
  };
}
