/**
 * The buzzer session in a real SQLite event log: every press and decision logged, a restart continues the
 * session exactly, `zaptable buzzer export` writes one CSV row per press, and `zaptable buzzer replay`
 * recomputes a question's ranking from the logged stamps (the dispute view).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { buzzerLogOf, loggedSessions } from '../../controller/app/buzzer-log.ts';
import { buzzerCommand } from '../../controller/cli/commands/buzzer.ts';
import { memoryOutput } from '../../controller/cli/output.ts';
import { BUZZER_DEFAULTS, type BuzzerSetup } from '../../controller/buzzer/index.ts';
import type { SensorEvent } from '../../controller/hardware/interface.ts';
import { EventLog } from '../../controller/persistence/index.ts';
import { BuzzerRuntime } from '../../controller/runtime/buzzer/buzzer-runtime.ts';
import { ManualTime, MemoryBuzzerPublisher, publisherPort } from './fakes.ts';

const SETUP: BuzzerSetup = {
  ...BUZZER_DEFAULTS,
  contestants: [
    { id: 'ana', name: 'Ana', colour: 'red', station: 'seat-1', team: null },
    { id: 'ben', name: 'Ben', colour: 'blue', station: 'seat-2', team: null },
    { id: 'cy', name: 'Cy', colour: null, station: 'seat-3', team: null },
  ],
  teams: [],
};

function press(station: string, hostUs: number, u: number, rawUs: number): SensorEvent {
  return {
    kind: 'button-pressed', station, button: 'zap', seq: 7,
    time: { source: 'device', epoch: 2, deviceUs: rawUs, rawUs, hostUs, uncertaintyUs: u, beforeUs: 80, afterUs: 0 },
  };
}

let dir: string | undefined;
afterEach(() => {
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

function runtimeOn(log: EventLog, time: ManualTime): { runtime: BuzzerRuntime; published: MemoryBuzzerPublisher } {
  const published = new MemoryBuzzerPublisher();
  const runtime = new BuzzerRuntime({ tableId: 'quiz', setup: SETUP, sound: false }, {
    log: buzzerLogOf(log), publisher: publisherPort(published), clock: time, scheduler: time,
    lamps: { setLamp: () => undefined },
  });
  return { runtime, published };
}

describe('buzzer sessions in the event log', () => {
  it('logs, recovers, exports CSV and replays a question', () => {
    dir = mkdtempSync(path.join(tmpdir(), 'zaptable-buzzer-'));
    const file = path.join(dir, 'log.db');
    const opened = EventLog.open(file);
    if (!opened.ok) throw new Error(opened.message);
    const log = opened.log;
    const time = new ManualTime(5_000_000);
    const { runtime } = runtimeOn(log, time);
    runtime.start();
    runtime.handleSensor(press('seat-3', 5_900_000, 150, 100)); // false start
    time.advanceTo(6_000_000);
    runtime.arm('host');
    time.advanceTo(6_310_000);
    runtime.handleSensor(press('seat-2', 6_300_120, 150, 400_000));
    runtime.handleSensor(press('seat-1', 6_300_000, 150, 900_000));
    runtime.handleSensor(press('seat-3', 6_305_000, 150, 500_000));
    time.advanceTo(6_400_000);
    expect(runtime.current.decision?.winners).toEqual(['ana', 'ben']);
    expect(runtime.mark(true, 'host', 'ben')).toEqual({ ok: true });
    time.advanceTo(7_000_000);
    runtime.arm('host');
    time.advanceTo(7_250_000);
    runtime.handleSensor(press('seat-1', 7_240_000, 150, 1_840_000));
    time.advanceTo(7_400_000);
    runtime.stop();

    // A restart continues the session exactly from the log.
    const sessions = loggedSessions(log, 'quiz');
    expect(sessions).toHaveLength(1);
    const again = runtimeOn(log, time);
    again.runtime.start(sessions[0]?.actions);
    expect(again.runtime.current).toEqual(runtime.current);
    expect(again.published.last).toMatchObject({ question: 2, winners: ['ana'], scores: { ana: 0, ben: 1, cy: 0 } });
    log.close();

    const out = path.join(dir, 'presses.csv');
    const io = memoryOutput();
    expect(buzzerCommand(['export', '--db', file, '--out', out], io)).toBe(0);
    const csv = readFileSync(out, 'utf8').trim().split('\n');
    expect(csv[0]).toBe('question,round,contestant,team,station,source,epoch,raw_us,device_us,mapped_us,uncertainty_us,'
      + 'outcome,rank,tie_group,delay_us,reaction_us,false_start,reason,sensor_seq,before_us,after_us');
    expect(csv.slice(1).map((l) => l.split(',').slice(0, 3).concat(l.split(',').slice(11, 17)))).toEqual([
      ['0', '0', 'cy', 'false-start', '', '', '', '', 'true'],
      ['1', '1', 'ben', 'ranked', '1', '0', '0', '300120', 'false'],
      ['1', '1', 'ana', 'ranked', '1', '0', '0', '300000', 'false'],
      ['1', '1', 'cy', 'ranked', '3', '', '5000', '305000', 'false'],
      ['2', '1', 'ana', 'ranked', '1', '', '0', '240000', 'false'],
    ]);
    expect(csv[3]).toContain(',seat-1,device,2,900000,900000,6300000,150,');
    expect(csv[3]).toMatch(/,80,0$/);

    const replay = memoryOutput();
    expect(buzzerCommand(['replay', '--db', file, '--question', '1'], replay)).toBe(0);
    expect(replay.lines.join('\n')).toContain('vs ben: separation 120 us, combined uncertainty 380.8 us -> cannot be ordered (tie)');
    expect(replay.lines.join('\n')).toContain('vs cy: separation 4880 us, combined uncertainty 380.8 us -> ordered');
    expect(replay.lines[0]).toBe('question 1, round 1: 3 ranked press(es)');
  });
});
