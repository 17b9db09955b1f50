/**
 * The clock pinger: one ping in flight at a time, a burst after start, and `pingNow()` (slap matching asks
 * for a fresh stamp) bringing the next ping forward without ever starting a second chain of pings.
 */
import { describe, expect, it } from 'vitest';
import { ClockPinger, DEFAULT_PING_SCHEDULE, type PingTransport } from '../../../controller/hardware/serial/clock-pinger.ts';
import type { CommandOutcome } from '../../../controller/hardware/serial/command-queue.ts';
import { VirtualTime } from '../../../controller/hardware/simulated/virtual-time.ts';

/** A transport that answers every ping `replyMs` after it was sent, and records when pings were sent. */
function transport(time: VirtualTime, replyMs: number): PingTransport & { sent: number[]; inFlight: number; most: number } {
  const t = {
    sent: [] as number[], inFlight: 0, most: 0,
    command(): Promise<CommandOutcome> {
      const sentUs = time.nowUs();
      t.sent.push(sentUs);
      t.inFlight++;
      t.most = Math.max(t.most, t.inFlight);
      return new Promise((resolve) => {
        time.setTimeout(() => {
          t.inFlight--;
          resolve({ ok: true, fields: { t: String(sentUs) }, sentUs, receivedUs: time.nowUs(), sentBytes: 12, replyBytes: 20 });
        }, replyMs);
      });
    },
  };
  return t;
}

describe('clock pinger', () => {
  const schedule = { ...DEFAULT_PING_SCHEDULE, burstCount: 1, intervalMs: 100 };

  it('pings now when asked, and goes on from there with one ping in flight at most', async () => {
    const time = new VirtualTime({ startUs: 0 });
    const link = transport(time, 3);
    const pinger = new ClockPinger(link, time, schedule, () => undefined);
    pinger.start();
    await time.advance(50);
    expect(link.sent).toEqual([0]);
    pinger.pingNow();
    expect(link.sent).toEqual([0, 50_000]);
    pinger.pingNow(); // in flight: nothing more
    await time.advance(200);
    expect(link.sent).toEqual([0, 50_000, 153_000]);
    expect(link.most).toBe(1);
    pinger.stop();
    pinger.pingNow(); // stopped: nothing
    await time.advance(500);
    expect(link.sent).toHaveLength(3);
  });

  it('does not start a second chain when asked to ping from inside its own sample callback', async () => {
    const time = new VirtualTime({ startUs: 0 });
    const link = transport(time, 3);
    let pinger: ClockPinger | undefined = undefined;
    pinger = new ClockPinger(link, time, schedule, () => pinger?.pingNow());
    pinger.start();
    await time.advance(1000);
    expect(link.most).toBe(1);
    // One ping per 103 ms (the interval after each reply), not two chains.
    expect(link.sent.length).toBeLessThanOrEqual(11);
    pinger.stop();
  });
});
