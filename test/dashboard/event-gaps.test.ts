/**
 * The dashboard fills the holes its own lost connection left in a table's events (dashboard/server/event-gaps.ts):
 * first the decisions on their own, then the whole path — a real controller whose bots keep playing, the
 * dashboard's MQTT hub behind a TCP relay whose link goes down for 3 s, and a viewer that stayed connected the
 * whole time as the reference. After the link is back the hub holds every event the viewer saw, unchanged and in
 * order; with `fillGaps: false` (the way it was) the hole stays.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ControllerApp } from '../../controller/app/controller-app.ts';
import { freeLoopbackPort } from '../../controller/bench/mosquitto.ts';
import { loadConfig } from '../../controller/config/index.ts';
import { silentLogger } from '../../controller/transport/logger.ts';
import { EventGaps, eventNumber, type HistoryPage } from '../../dashboard/server/event-gaps.ts';
import { MqttHub } from '../../dashboard/server/mqtt-hub.ts';
import { client } from '../security/support/rig.ts';
import { TcpProxy } from '../transport/support/tcp-proxy.ts';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => undefined);
});

const event = (seq: number, epoch = 7): { seq: number; epoch: number; type: string } => ({ seq, epoch, type: 'CARD_PLAYED' });

describe('EventGaps', () => {
  function gaps(keep = 100, fail = false): { gaps: EventGaps; asked: string[]; got: unknown[][] } {
    const asked: string[] = [];
    const got: unknown[][] = [];
    const ask = async (table: string, p: { fromSeq: number; epoch: number; limit: number }): Promise<HistoryPage> => {
      asked.push(`${table} ${String(p.epoch)} ${String(p.fromSeq)}+${String(p.limit)}`);
      await Promise.resolve();
      if (fail) throw new Error('REQUEST_TIMEOUT');
      // Pages of 2: the filler must follow `next`.
      const events = [p.fromSeq, p.fromSeq + 1].filter((s) => s < p.fromSeq + p.limit).map((s) => event(s, p.epoch));
      const last = events.at(-1)?.seq ?? p.fromSeq;
      return { events, next: last < p.fromSeq + p.limit - 1 ? last + 1 : null };
    };
    return { gaps: new EventGaps(ask, (_t, e) => got.push([...e]), keep, silentLogger), asked, got };
  }
  const settle = async (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 10));

  it('asks for what lies between the newest event and a jump, page by page, and hands it over', async () => {
    const { gaps: g, asked, got } = gaps();
    g.seen('t', event(1));
    g.seen('t', event(2));
    g.seen('t', event(7));
    await settle();
    expect(asked).toEqual(['t 7 3+4', 't 7 5+2']);
    expect(got.flat().map((e) => eventNumber(e)?.seq)).toEqual([3, 4, 5, 6]);
    expect(g.stats).toEqual({ gaps: 1, filled: 1, recovered: 4, failed: 0 });
  });

  it('asks nothing for the first event, a new start, a repeat or an older start; at most `keep` events', async () => {
    const { gaps: g, asked } = gaps(3);
    g.seen('t', event(40));
    g.seen('t', event(2, 8));
    g.seen('t', event(2, 8));
    g.seen('t', event(90, 7));
    expect(asked).toEqual([]);
    g.seen('t', event(20, 8));
    await settle();
    expect(asked[0]).toBe('t 8 17+3');
  });

  it('counts a fill that got no answer and asks again at the next jump', async () => {
    const { gaps: g, asked } = gaps(100, true);
    g.seen('t', event(1));
    g.seen('t', event(3));
    await settle();
    g.seen('t', event(5));
    await settle();
    expect(asked).toEqual(['t 7 2+1', 't 7 4+1']);
    expect(g.stats.failed).toBe(2);
  });
});

describe('the dashboard after its link to the broker was down', () => {
  it.each([true, false])('with fillGaps %s: holds every event a connected viewer saw (true), or a hole (false)', async (fill) => {
    const dir = mkdtempSync(path.join(tmpdir(), 'zaptable-gaps-'));
    const port = await freeLoopbackPort();
    const account = { username: 'dash', password: 'dash-secret-0123' };
    const file = path.join(dir, 'zaptable.yaml');
    writeFileSync(file, [
      'tables:',
      '  - { id: t1, mode: zip-zap, seats: [{ id: ana, bot: true }, { id: ben, bot: true }, { id: cy, bot: true }] }',
      'hardware: { kind: simulated, simulated: { speed: 4, bots: true } }',
      'mqtt:',
      `  embedded: { port: ${String(port)} }`,
      '  clients:',
      `    - { username: ${account.username}, password: ${account.password}, role: referee }`,
      'dashboard: { enabled: false, token: gaps-test-token-0123456789 }',
      `storage: { directory: ${JSON.stringify(dir)} }`,
      '',
    ].join('\n'));
    const loaded = loadConfig({ file });
    if (!loaded.ok) throw new Error(loaded.errors.map((e) => e.message).join('; '));
    const app = new ControllerApp({ config: loaded.config, say: () => undefined });
    await app.start();
    cleanups.push(async () => {
      await app.stop();
      rmSync(dir, { recursive: true, force: true });
    });
    // The reference: a viewer connected to the broker directly the whole time.
    const viewer = await client(`mqtt://127.0.0.1:${String(port)}`, account);
    cleanups.push(async () => viewer.endAsync(true));
    const seen = new Map<number, string>();
    viewer.on('message', (_topic, payload) => {
      const text = payload.toString('utf8');
      const n = eventNumber(JSON.parse(text));
      if (n !== undefined) seen.set(n.seq, text);
    });
    await viewer.subscribeAsync('zaptable/t1/events', { qos: 1 });
    const link = new TcpProxy(port);
    const linkPort = await link.start();
    cleanups.push(async () => link.close());
    const hub = new MqttHub({
      url: `mqtt://127.0.0.1:${String(linkPort)}`, ...account, reconnectPeriodMs: 200, requestTimeoutMs: 5000, fillGaps: fill,
    });
    await hub.start();
    cleanups.push(async () => hub.stop());
    const seqs = (): number[] => hub.history('t1', 500).map((e) => eventNumber(e)?.seq ?? 0);
    const until = async (ok: () => boolean, ms: number, what: string): Promise<void> => {
      const deadline = Date.now() + ms;
      while (!ok()) {
        if (Date.now() > deadline) throw new Error(`${what}; the hub holds seq ${seqs().join(',')}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    };
    await until(() => seqs().length >= 3, 20_000, 'no events before the cut');
    const beforeCut = Math.max(...seqs());
    link.breakLink();
    await until(() => Math.max(...seen.keys()) >= beforeCut + 5, 20_000, 'the bots made fewer than 5 events during the cut');
    const atRestore = Math.max(...seen.keys());
    link.restore();
    const first = Math.min(...seqs());
    // Back: a new event arrives live, and the hole before it is asked for (or, without filling, stays).
    await until(() => Math.max(...seqs()) > atRestore, 20_000, 'no event after the cut');
    const last = Math.max(...seqs());
    const contiguous = (): boolean => seqs().filter((s) => s <= last).length === last - first + 1;
    if (fill) {
      await until(contiguous, 10_000, 'the hole stayed');
      // Every event between, exactly as the connected viewer got it, in order.
      const held = hub.history('t1', 500).filter((e) => (eventNumber(e)?.seq ?? 0) <= last);
      expect(held.map((e) => JSON.stringify(e))).toEqual(
        Array.from({ length: last - first + 1 }, (_, i) => JSON.stringify(JSON.parse(seen.get(first + i) ?? 'null'))),
      );
      expect(hub.stats().gaps.recovered).toBeGreaterThanOrEqual(5);
    } else {
      await new Promise((resolve) => setTimeout(resolve, 1500));
      expect(contiguous()).toBe(false);
      expect(hub.stats().gaps.recovered).toBe(0);
    }
  }, 90_000);
});
