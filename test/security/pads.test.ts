/**
 * Items 2 and 11 of issue 10, from outside on the simulated table (real protocol lines through the real serial
 * driver): a barrel put down during ROLL is withheld on `health/<station>` and the referee's `roll` refuses
 * while a pad is not clear, as the seat button does; a station that was unplugged starts with a fresh pad (no
 * stale tag keeps the table in PADS_NOT_CLEAR); sensor events after a game has ended are still logged.
 */
import path from 'node:path';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { afterEach, describe, expect, it } from 'vitest';
import { EventLog } from '../../controller/persistence/index.ts';
import { getEngine } from '../../controller/rules/games.ts';
import { BASE, Inbox, Referee, VIEWER, client, startRig, type Rig } from './support/rig.ts';

let rig: Rig | undefined;
const closers: (() => Promise<void>)[] = [];

afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
  await rig?.dispose();
  rig = undefined;
});

const ZAPP = { id: 'z1', mode: 'zapp-zerapp' as const, seats: ['red', 'green'] };

async function viewerOf(url: string): Promise<Inbox> {
  const c = await client(url, VIEWER);
  closers.push(async () => c.endAsync(true));
  const inbox = new Inbox(c);
  await c.subscribeAsync([`${BASE}/z1/health/+`, `${BASE}/z1/state`, `${BASE}/z1/events`], { qos: 1 });
  return inbox;
}

async function until(check: () => boolean, what: string, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('pads on a Zapp Zerapp table', () => {
  it('withhold a barrel put down during ROLL, and the referee\'s roll waits for clear pads', async () => {
    rig = await startRig({ broker: 'embedded', tables: [ZAPP] });
    const viewer = await viewerOf(rig.brokerUrl);
    const r = await Referee.connect(rig.brokerUrl);
    closers.push(async () => r.close());
    expect((await r.request('z1', 'simulate', { station: 'seat-1', op: 'place', item: { kind: 'barrel', value: 7 } })).status).toBe('ok');
    // The weight settles and the tag is read: wait until the health shows a pad reading at all.
    await viewer.waitFor(() => viewer.messages.find((m) => m.topic.endsWith('/health/seat-1') && m.text.includes('"pad"')), 'a pad reading');
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const health = viewer.messages.filter((m) => m.topic.endsWith('/health/seat-1')).map((m) => m.text).join('\n');
    expect(health).not.toMatch(/barrel|stones|"grams":\s*[1-9]/);
    const roll = await r.request('z1', 'roll', { player: 'red' });
    expect(roll.error?.code).toBe('PADS_NOT_CLEAR');
    expect((await r.request('z1', 'simulate', { station: 'seat-1', op: 'lift' })).status).toBe('ok');
    await until(() => (rig?.app.tableState('z1')?.state as { phase?: string }).phase === 'ROLL', 'ROLL');
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect((await r.request('z1', 'roll', { player: 'red' })).status).toBe('ok');
    // No barrel counted as red's secret choice: nobody has placed.
    const state = rig.app.tableState('z1')?.state as { barrels: Record<string, { at: string }> };
    expect(Object.values(state.barrels).filter((b) => b.at === 'PLACED')).toEqual([]);
  });

  it('forget what lay on a station\'s pad when it was unplugged', async () => {
    rig = await startRig({ broker: 'embedded', tables: [ZAPP] });
    const r = await Referee.connect(rig.brokerUrl);
    closers.push(async () => r.close());
    await r.request('z1', 'simulate', { station: 'seat-2', op: 'place', item: { kind: 'barrel', value: 3 } });
    await new Promise((resolve) => setTimeout(resolve, 1500));
    // Unplugged with the barrel on it; the barrel is taken away while the station is gone; plugged in again.
    await r.request('z1', 'simulate', { station: 'seat-2', op: 'unplug' });
    await new Promise((resolve) => setTimeout(resolve, 500));
    await r.request('z1', 'simulate', { station: 'seat-2', op: 'lift' });
    await r.request('z1', 'simulate', { station: 'seat-2', op: 'plug' });
    await new Promise((resolve) => setTimeout(resolve, 3000));
    expect((await r.request('z1', 'roll', { player: 'red' })).status).toBe('ok');
  });

  it('log sensor events after the game has ended instead of throwing GAME_NOT_OPEN', async () => {
    const directory = mkdtempSync(path.join(tmpdir(), 'zaptable-security-'));
    const opened = EventLog.open(path.join(directory, 'zaptable.db'));
    if (!opened.ok) throw new Error(opened.message);
    const log = opened.log;
    // A game one move from its end (rules scenario ZAPP-80), continued from a snapshot.
    const engine = getEngine('zapp-zerapp');
    const scenario = engine.fromScenario({
      players: ['red', 'green'], colours: { red: 'RED', green: 'GREEN' }, phase: 'MOVE', magic: 9,
      barrels: { green: 5, red: 3 }, pieces: { GREEN1: 'C', GREEN2: 'C', GREEN3: 3 },
    });
    if (!scenario.ok) throw new Error(scenario.message);
    const id = log.startGame({ tableId: 'z1', game: 'zapp-zerapp', config: { players: ['red', 'green'], colours: { red: 'RED', green: 'GREEN' } }, seed: 1 });
    log.appendAction('z1', id, { type: 'roll' });
    log.appendSnapshot(id, scenario.state);
    log.commit();
    log.close();
    rig = await startRig({ broker: 'embedded', tables: [ZAPP], directory });
    const r = await Referee.connect(rig.brokerUrl);
    closers.push(async () => r.close());
    expect((await r.request('z1', 'move', { player: 'green', piece: 'GREEN3' })).status).toBe('ok');
    expect((rig.app.tableState('z1')?.state as { phase: string }).phase).toBe('DONE');
    await r.request('z1', 'simulate', { station: 'seat-1', op: 'place', item: { kind: 'barrel', value: 9 } });
    await r.request('z1', 'simulate', { station: 'seat-1', op: 'press' });
    await new Promise((resolve) => setTimeout(resolve, 1500));
    await r.close();
    await rig.stop();
    expect(rig.lines.join('\n')).not.toMatch(/GAME_NOT_OPEN|listener threw/);
    const reread = EventLog.open(path.join(directory, 'zaptable.db'), { readonly: true });
    if (!reread.ok) throw new Error(reread.message);
    const ended = reread.log.reader.rows(id).find((row) => row.kind === 'system' && JSON.stringify(row).includes('game-ended'));
    const sensorsAfter = reread.log.reader.sensorsBetween('z1', -Infinity, Infinity).filter((row) => row.seq > (ended?.seq ?? Infinity));
    reread.log.close();
    expect(ended).toBeDefined();
    expect(sensorsAfter.length).toBeGreaterThan(0);
  });
});
