/**
 * A venue with real processes (issue 19): one Mosquitto venue broker, three controller processes (`zaptable
 * start` on simulated tables: Zapp Zerapp, Zip-Zap, Killer-21 and a buzzer table, bots on two of them), and
 * the venue dashboard process (`zaptable dashboard`) following all three. Checks, in one run (each step builds
 * on the previous one, so the processes start once):
 *
 * - every table of every controller is on the dashboard's overview, with its controller, online, its game;
 * - the referee controls reach the right controller: a new game and a roll sent through the venue dashboard to
 *   a table of pi-2 run there, with pi-2's token;
 * - one controller's referee token cannot steer another controller's table (UNAUTHORIZED, nothing changes),
 *   and a controller's broker account cannot publish on another controller's table (the ACL drops it);
 * - pi-2 killed with SIGKILL: its tables show offline on the dashboard (the last wills), and after a restart
 *   they are back online with the exact game (the same public view, a new epoch);
 * - a duplicate table id: pi-2 restarted with `t1` (pi-1's) among its tables refuses to start it
 *   (`TABLE_ID_TAKEN`, announced in its `bridge/pi-2/tables`), and pi-1 says so too; t1 stays pi-1's.
 *
 * Runs on 2 cores in CI: 4 Node processes and Mosquitto; the bots play at real-time speed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BenchBroker } from '../../controller/bench/mosquitto.ts';
import { mosquittoProblem } from '../../controller/bench/mosquitto.ts';
import type { BridgeTablesPayload, ResponsePayload } from '../../controller/transport/payloads.ts';
import {
  REFEREE_USER, VENUE_DASHBOARD_TOKEN, VIEWER_USER, VenueWatcher, controllerUser, freeLoopbackPort, startController,
  startVenueBroker, startVenueDashboard, until, writeControllerConfig, writeDashboardConfig,
  type VenueControllerSpec, type VenueProcess, type VenueTable,
} from './support/venue.ts';

const PI1: VenueControllerSpec = {
  id: 'pi-1', token: 'pi-1-referee-token-0123', bots: true,
  tables: [{ id: 't1', mode: 'zapp-zerapp', seats: ['red', 'green'] }, { id: 't2', mode: 'zip-zap', seats: ['ana', 'ben'] }],
};
const PI2: VenueControllerSpec = {
  id: 'pi-2', token: 'pi-2-referee-token-0123', bots: false,
  tables: [{ id: 't3', mode: 'zapp-zerapp', seats: ['red', 'green', 'blue'] }, { id: 't4', mode: 'zip-zap', seats: ['cy', 'dee'] }],
};
const PI3: VenueControllerSpec = {
  id: 'pi-3', token: 'pi-3-referee-token-0123', bots: true,
  tables: [{ id: 't5', mode: 'killer-21', seats: ['eve', 'fay', 'gus'] }, { id: 't6', mode: 'buzzer', seats: ['hal', 'ida'] }],
};
const CONTROLLERS = [PI1, PI2, PI3];
const ALL_TABLES = CONTROLLERS.flatMap((c) => c.tables.map((t) => ({ table: t.id, controller: c.id })));

interface Summary { id: string; controller: string | null; status: string; mode: string; game: string | null }

const skip = mosquittoProblem();
let broker: BenchBroker | undefined;
const processes = new Map<string, VenueProcess>();
const configs = new Map<string, string>();
let dashboardUrl = '';
let viewer: VenueWatcher | undefined;

async function overview(): Promise<Summary[]> {
  const r = await fetch(`${dashboardUrl}/api/tables`);
  return ((await r.json()) as { tables: Summary[] }).tables;
}

async function control(table: string, name: string, params: Record<string, unknown>): Promise<ResponsePayload> {
  const r = await fetch(`${dashboardUrl}/api/tables/${table}/requests/${name}`, {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ token: VENUE_DASHBOARD_TOKEN, params }),
  });
  return r.json() as Promise<ResponsePayload>;
}

function publicView(table: string): unknown {
  return (viewer?.json(`venue/${table}/state`) as { view?: unknown } | undefined)?.view;
}

beforeAll(async () => {
  if (skip !== undefined) return;
  // pi-2's account may also write t1: the duplicate check below must be the controller's refusal, not the ACL's.
  broker = await startVenueBroker(CONTROLLERS, { 'pi-2': ['t1'] });
  viewer = await VenueWatcher.connect(broker.url, VIEWER_USER, ['venue/+/status', 'venue/+/state', 'venue/bridge/+/status', 'venue/bridge/+/tables']);
  const port = await freeLoopbackPort();
  dashboardUrl = `http://127.0.0.1:${port}`;
  const started = await Promise.all([
    ...CONTROLLERS.map(async (spec) => {
      const file = writeControllerConfig(spec, broker?.url ?? '');
      configs.set(spec.id, file);
      return [spec.id, await startController(spec, file)] as const;
    }),
    startVenueDashboard(writeDashboardConfig(broker.url, port, CONTROLLERS)).then((p) => ['dashboard', p] as const),
  ]);
  for (const [id, p] of started) processes.set(id, p);
}, 90_000);

afterAll(async () => {
  await Promise.all([...processes.values()].map(async (p) => p.stop()));
  await viewer?.close();
  await broker?.dispose();
});

describe.skipIf(skip !== undefined)('a venue: three controllers, one Mosquitto, one dashboard', () => {
  it('lists every table of every controller on the overview, with its controller, online', async () => {
    const tables = await until(async () => {
      const list = await overview();
      const ready = ALL_TABLES.every(({ table, controller }) => list.some((t) => t.id === table && t.controller === controller && t.status === 'online'));
      return ready ? list : undefined;
    }, 'every table online on the overview');
    expect(tables.map((t) => t.id).sort()).toEqual(ALL_TABLES.map((t) => t.table).sort());
    // The bots' tables are playing; the buzzer table shows its mode.
    await until(async () => ((await overview()).find((t) => t.id === 't1')?.game === 'zapp-zerapp' ? true : undefined), 't1 playing');
    expect((await overview()).find((t) => t.id === 't6')?.mode).toBe('buzzer');
    // Each controller announced its own list under its own id.
    for (const spec of CONTROLLERS) {
      const listed = viewer?.json(`venue/bridge/${spec.id}/tables`) as BridgeTablesPayload | undefined;
      expect(listed?.controller).toBe(spec.id);
      expect(listed?.tables.map((t) => t.id)).toEqual(spec.tables.map((t) => t.id));
      expect(viewer?.latest.get(`venue/bridge/${spec.id}/status`)).toBe('online');
    }
  });

  it('sends referee controls to the controller that runs the table, with that controller\'s token', async () => {
    const started = await control('t3', 'new-game', { game: 'zapp-zerapp', players: ['red', 'green', 'blue'], seed: 7 });
    expect(started).toMatchObject({ status: 'ok' });
    const rolled = await control('t3', 'roll', {});
    expect(rolled).toMatchObject({ status: 'ok' });
    await control('t4', 'new-game', { game: 'zip-zap', players: ['cy', 'dee'], seed: 3 });
    const view = await until(() => {
      const v = publicView('t3') as { phase?: string } | undefined;
      return v?.phase === 'SELECT' ? v : undefined;
    }, 't3 rolled');
    expect(view.phase).toBe('SELECT');
  });

  it('refuses one controller\'s token on another controller\'s table, and another controller\'s publishes', async () => {
    const referee = await VenueWatcher.connect(broker?.url ?? '', REFEREE_USER, []);
    const mallory = await VenueWatcher.connect(broker?.url ?? '', controllerUser(PI1), []);
    try {
      await referee.client.subscribeAsync(`venue/+/response/${referee.clientId}/#`, { qos: 1 });
      const before = JSON.stringify(publicView('t3'));
      const ask = async (token: string, transaction: string): Promise<ResponsePayload> => {
        await referee.client.publishAsync(`venue/t3/request/${referee.clientId}/next-round`, JSON.stringify({ token, transaction }), { qos: 1 });
        const answer = (): ResponsePayload | undefined => referee.messages.map((m) => JSON.parse(m.text) as ResponsePayload)
          .find((r) => r.transaction === transaction);
        return until(answer, transaction);
      };
      expect(await ask(PI1.token, 'pi-1-token')).toMatchObject({ status: 'error', error: { code: 'UNAUTHORIZED' } });
      // The right token reaches the rules (no round to move on to in SELECT): the refusal above was the token's.
      expect(await ask(PI2.token, 'pi-2-token')).toMatchObject({ status: 'error', error: { code: 'NOT_AVAILABLE' } });
      // pi-1's account writing on pi-2's table: Mosquitto drops it, the viewer never sees it.
      await mallory.client.publishAsync('venue/t3/status', 'offline', { qos: 1, retain: true });
      await mallory.client.publishAsync('venue/t3/state', '{"mode":"idle","seq":0,"at":0}', { qos: 1, retain: true });
      await referee.client.publishAsync(`venue/t3/request/${referee.clientId}/next-round`, JSON.stringify({ token: PI2.token, transaction: 'fence' }), { qos: 1 });
      await until(() => referee.messages.find((m) => m.text.includes('"fence"')), 'the fence');
      expect(viewer?.latest.get('venue/t3/status')).toBe('online');
      expect(JSON.stringify(publicView('t3'))).toBe(before);
    } finally {
      await referee.close();
      await mallory.close();
    }
  });

  it('shows a killed controller\'s tables offline at once, then back with the exact game; a duplicate table id is refused', async () => {
    const before = { t3: JSON.stringify(publicView('t3')), t4: JSON.stringify(publicView('t4')) };
    const epochBefore = (viewer?.json('venue/t3/state') as { epoch: number }).epoch;
    expect(JSON.parse(before.t3)).toMatchObject({ phase: 'SELECT' });
    const killedAt = Date.now();
    await processes.get('pi-2')?.kill();
    const offline = await until(async () => {
      const list = await overview();
      return ['t3', 't4'].every((id) => list.find((t) => t.id === id)?.status === 'offline') ? Date.now() - killedAt : undefined;
    }, 'pi-2\'s tables offline', 10_000);
    // The broker sends the wills when the socket closes with the process; the poll runs every 50 ms.
    expect(offline).toBeLessThan(3000);
    expect((await overview()).filter((t) => t.controller === 'pi-1' || t.controller === 'pi-3').every((t) => t.status === 'online')).toBe(true);

    // Restarted with the same log, and with t1 (pi-1's) added: t1 is refused, t3 and t4 come back as they were.
    const tables: VenueTable[] = [...PI2.tables, { id: 't1', mode: 'zapp-zerapp', seats: ['red', 'green'] }];
    const file = configs.get('pi-2') ?? '';
    writeControllerConfig(PI2, broker?.url ?? '', { dir: file.slice(0, file.lastIndexOf('/')), tables });
    const restarted = await startController(PI2, file);
    processes.set('pi-2', restarted);
    await until(async () => {
      const list = await overview();
      return ['t3', 't4'].every((id) => list.find((t) => t.id === id)?.status === 'online') ? true : undefined;
    }, 'pi-2\'s tables back online');
    await until(() => ((viewer?.json('venue/t3/state') as { epoch: number }).epoch > epochBefore ? true : undefined), 't3 republished');
    expect(JSON.stringify(publicView('t3'))).toBe(before.t3);
    expect(JSON.stringify(publicView('t4'))).toBe(before.t4);

    expect(restarted.output()).toContain('TABLE_ID_TAKEN: table t1 is not started: controller pi-1 runs a table with that id');
    const listed = viewer?.json('venue/bridge/pi-2/tables') as BridgeTablesPayload;
    expect(listed.tables.map((t) => t.id)).toEqual(['t3', 't4']);
    expect(listed.refused).toEqual([{ id: 't1', code: 'TABLE_ID_TAKEN', owner: 'pi-1' }]);
    await processes.get('pi-1')?.waitForOutput('TABLE_ID_TAKEN: controller pi-2 tried to start table t1, which runs here (pi-1)', 10_000);
    expect((await overview()).find((t) => t.id === 't1')).toMatchObject({ controller: 'pi-1', status: 'online' });
  });
});
