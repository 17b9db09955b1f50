/**
 * Getting games out of the log: the action-log export replays to the same state with the scenario replayer
 * and `zaptable replay FILE`; `zaptable replay --db` gives the same view; the dispute view orders sensor
 * events by mapped time with their raw stamps and flags ties; `zaptable history` lists and shows games.
 */
import { writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { playGame } from '../../controller/bots/play-game.ts';
import type { SensorEvent } from '../../controller/hardware/interface.ts';
import { historyCommand } from '../../controller/cli/commands/history.ts';
import { replayDbCommand } from '../../controller/cli/commands/replay-db.ts';
import { replayCommand } from '../../controller/cli/commands/replay.ts';
import { UsageError } from '../../controller/cli/args.ts';
import { memoryOutput } from '../../controller/cli/output.ts';
import { disputeView, exportActionLog, gameSensorView, listGames } from '../../controller/persistence/index.ts';
import { getEngine } from '../../controller/rules/games.ts';
import { parseActionLog, replayLog } from '../../controller/scenarios/action-log.ts';
import { newFile, openLog, press } from './helpers.ts';

const players = ['A', 'B', 'C'];

/** A log with a finished Zapp Zerapp game (one wrong action undone), an unfinished Zip-Zap game, and presses. */
function fixture() {
  const file = newFile();
  const log = openLog(file, { autoCommit: false });
  const finished = playGame(getEngine('zapp-zerapp'), { players }, 11);
  const g1 = log.startGame({ tableId: 'T1', game: 'zapp-zerapp', config: { players }, seed: 11 });
  for (const [i, action] of finished.actions.entries()) {
    if (i === 5) {
      const wrong = log.appendAction('T1', g1, action);
      log.appendCorrection('T1', g1, { by: 'referee', reason: 'logged twice', action: { type: 'undo', seq: wrong } });
    }
    log.appendAction('T1', g1, action);
  }
  log.endGame(g1, finished.result);
  const running = playGame(getEngine('zip-zap'), { players }, 'abc');
  const g2 = log.startGame({ tableId: 'T2', game: 'zip-zap', config: { players }, seed: 'abc' });
  // Three presses 300 us apart on three stations, ±200 us each (so neighbours overlap), logged out of order,
  // plus one far away and one from a station not synced yet.
  log.appendSensor('T2', g2, press('seat-3', 10_000_600, 200, { rawUs: 4_294_967_000, deviceUs: 4_294_967_000, epoch: 2 }));
  log.appendSensor('T2', g2, press('seat-1', 10_000_000, 200));
  const middle = log.appendSensor('T2', g2, press('seat-2', 10_000_300, 200));
  log.appendSensor('T2', g2, press('seat-1', 50_000_000, 50));
  log.appendSensor('T2', g2, press('seat-4', 10_000_900, Infinity));
  // A press, then 30 ms later a tag read whose poll window reaches 52 ms back: their clock bounds (±50 us) are far
  // apart, but the tag may have arrived before the press: only the sensor interval makes them a tie.
  log.appendSensor('T2', g2, press('seat-1', 20_000_000, 50, { beforeUs: 0 }));
  const tag: SensorEvent = {
    station: 'pile-1', kind: 'tag-arrived', uid: '04A1B2C3', seq: 9,
    time: { source: 'device', epoch: 1, deviceUs: 7_030_000, rawUs: 7_030_000, hostUs: 20_030_000, uncertaintyUs: 50, beforeUs: 52_000, afterUs: 0 },
  };
  log.appendSensor('T2', g2, tag);
  // A card dated by the slap that preceded its read (slap-matching.ts): the slap is logged too.
  const slapTime = { ...tag.time, deviceUs: 17_000_000, rawUs: 17_000_000, hostUs: 30_000_000, beforeUs: 80 };
  log.appendSensor('T2', g2, { station: 'pile-1', kind: 'slap', seq: 10, time: slapTime });
  const dated: SensorEvent = {
    station: 'pile-1', kind: 'tag-arrived', uid: '04A1B2C4', seq: 11, slap: { seq: 10, time: slapTime },
    time: { ...slapTime, deviceUs: 17_014_000, rawUs: 17_014_000, hostUs: 30_014_000, beforeUs: 25_000 },
  };
  log.appendSensor('T2', g2, dated);
  for (const action of running.actions.slice(0, 40)) log.appendAction('T2', g2, action);
  log.close();
  const partial = replayLog({ game: 'zip-zap', config: { players }, seed: 'abc', actions: running.actions.slice(0, 40) });
  return { file, g1, g2, finished, partial, middle };
}

type Command = (argv: readonly string[], io: ReturnType<typeof memoryOutput>) => number | Promise<number>;

async function run(command: Command, ...argv: string[]) {
  const io = memoryOutput();
  const code = await command(argv, io);
  return { code, out: io.lines.join('\n'), err: io.errors.join('\n') };
}

describe('export to an action log', () => {
  it('replays to the logged state with replayLog and with `zaptable replay FILE`, undone actions left out', async () => {
    const { file, g1, finished } = fixture();
    const log = openLog(file, { readonly: true });
    const exported = exportActionLog(log, g1);
    expect(exportActionLog(log, 999)).toBeUndefined();
    log.close();
    expect(exported?.actions).toHaveLength(finished.actionCount);
    const parsed = parseActionLog(JSON.parse(JSON.stringify(exported)));
    if (!parsed.ok) return expect.fail(parsed.errors.join('; '));
    const replayed = replayLog(parsed.log);
    expect(replayed).toMatchObject({ ok: true, applied: finished.actionCount });
    if (replayed.ok) expect(replayed.state).toEqual(finished.finalState);
    const json = `${file}.json`;
    writeFileSync(json, JSON.stringify(exported));
    const fromFile = await run(replayCommand, json, '--json');
    const fromDb = await run(replayDbCommand, '--db', file, '--game', String(g1), '--json');
    expect(fromDb.code).toBe(0);
    expect(fromDb.out).toBe(fromFile.out);
    expect(JSON.parse(fromDb.out)).toEqual(getEngine('zapp-zerapp').view(finished.finalState, { role: 'public' }));
  });
});

describe('dispute view', () => {
  it('orders sensor events by mapped time with raw stamps, epochs and uncertainty, and flags overlaps as ties', () => {
    const { file, g2, middle } = fixture();
    const log = openLog(file, { readonly: true });
    const around = disputeView(log, 'T2', 10_000_300, 1000);
    expect(around.map((r) => r.station)).toEqual(['seat-1', 'seat-2', 'seat-3', 'seat-4']);
    expect(around.map((r) => r.sinceFirstUs)).toEqual([0, 300, 600, 900]);
    expect(around.map((r) => r.overlapsPrevious)).toEqual([false, true, true, true]);
    expect(around[2]).toMatchObject({ rawUs: 4_294_967_000, epoch: 2, mappedUs: 10_000_600, uncertaintyUs: 200, detail: { button: 'zap' } });
    expect(around[3]?.uncertaintyUs).toBe(Infinity);
    expect(around.find((r) => r.seq === middle)?.station).toBe('seat-2');
    expect(disputeView(log, 'T1', 10_000_300, 1000)).toEqual([]);
    const intervals = disputeView(log, 'T2', 20_015_000, 20_000);
    expect(intervals.map((r) => [r.kind, r.beforeUs, r.afterUs, r.overlapsPrevious])).toEqual([
      ['button-pressed', 0, 0, false], ['tag-arrived', 52_000, 0, true],
    ]);
    expect(gameSensorView(log, g2)).toHaveLength(9);
    log.close();
  });

  it('prints them with `zaptable replay --db --sensors`, around a row or for the whole game', async () => {
    const { file, g2, middle, partial } = fixture();
    const all = await run(replayDbCommand, '--db', file, '--game', String(g2), '--sensors');
    expect(all.code).toBe(0);
    expect(all.out).toContain('zip-zap game 2 (table T2): 40 actions applied');
    expect(all.out).toContain('sensor events (9), in mapped-time order:');
    expect(all.out).toContain('pile-1 slap   mapped 30000000 us');
    expect(all.out).toContain('pile-1 tag-arrived uid="04A1B2C4" landed by the slap seq 10 at device 17000000 us (≤ 80 us before)');
    expect(all.out).toMatch(/#\d+ \+600 us {2}seat-3 button-pressed .*mapped 10000600 us ±200 us/);
    expect(all.out).toContain('(raw 4294967000, device 4294967000 us, happened ≤ 80 us before, epoch 2)  tie');
    expect(all.out).toContain('pile-1 tag-arrived uid="04A1B2C3"  mapped 20030000 us ±50 us  (raw 7030000, device 7030000 us, happened ≤ 52000 us before, epoch 1)  tie');
    expect(all.out).toContain('±inf (not synced)');
    const near = await run(replayDbCommand, '--db', file, '--game', String(g2), '--sensors', '--around', String(middle), '--window-ms', '1', '--json');
    const parsed = JSON.parse(near.out) as { view: unknown; sensors: { station: string }[] };
    expect(parsed.sensors.map((s) => s.station)).toEqual(['seat-1', 'seat-2', 'seat-3', 'seat-4']);
    if (partial.ok) expect(parsed.view).toEqual(getEngine('zip-zap').view(partial.state, { role: 'public' }));
    expect(await run(replayDbCommand, '--db', file, '--game', '77')).toMatchObject({ code: 1, err: expect.stringContaining('NO_SUCH_GAME') as unknown });
    expect(() => replayDbCommand(['--db', file], memoryOutput())).toThrow(UsageError);
  });
});

describe('zaptable history', () => {
  it('lists games newest first with results, filters by table, and shows one game with every row', async () => {
    const { file, g1, g2, finished } = fixture();
    const list = await run(historyCommand, '--db', file);
    expect(list.code).toBe(0);
    const lines = list.out.split('\n');
    expect(lines[0]).toMatch(new RegExp(`^#${g2} {2}table T2 {2}zip-zap .* 40 actions {2}in progress$`));
    expect(lines[1]).toMatch(new RegExp(`^#${g1} {2}table T1 {2}zapp-zerapp {2}players A,B,C {2}seed 11 .* ${finished.actionCount} actions {2}winners ${finished.result.winners.join(',')}$`));
    const t1 = JSON.parse((await run(historyCommand, '--db', file, '--table', 'T1', '--json')).out) as { id: number; counts: Record<string, number> }[];
    expect(t1.map((g) => g.id)).toEqual([g1]);
    expect(t1[0]?.counts).toEqual({ sensor: 0, action: finished.actionCount + 1, rejected: 0, correction: 1, system: 2 });
    const show = await run(historyCommand, 'show', String(g1), '--db', file);
    expect(show.out).toContain('undo #');
    expect(show.out).toContain('by referee: logged twice');
    expect(show.out.split('\n')).toHaveLength(3 + finished.actionCount + 1 + 1 + 2);
    const log = openLog(file, { readonly: true });
    expect(listGames(log, { finished: true }).map((g) => g.actionCount)).toEqual([finished.actionCount]);
    log.close();
    expect(await run(historyCommand, 'show', '99', '--db', file)).toMatchObject({ code: 1 });
    expect(() => historyCommand(['list'], memoryOutput())).toThrow(UsageError);
  });

  it('reports a damaged or missing database with its code', async () => {
    const file = newFile();
    openLog(file).close();
    writeFileSync(file, 'not a database at all'.repeat(300));
    expect(await run(historyCommand, '--db', file)).toMatchObject({ code: 1, err: expect.stringContaining('LOG_CORRUPT') as unknown });
    expect(await run(historyCommand, '--db', `${file}.nope`)).toMatchObject({ code: 1, err: expect.stringContaining('LOG_UNREADABLE') as unknown });
  });
});
