/**
 * Commands to a station: one in flight, ids echoed, `err -` matched to the command in flight, a late reply
 * after a timeout not taken for the next command's answer.
 */
import { describe, expect, it } from 'vitest';
import { CommandQueue, type CommandOutcome } from '../../../controller/hardware/serial/command-queue.ts';
import { TimerSet } from '../../../controller/hardware/serial/timers.ts';
import { VirtualTime } from '../../../controller/hardware/simulated/virtual-time.ts';
import { formatDeviceLine, frame, parseDeviceLine, type ErrReply, type OkReply } from '../../../controller/protocol/index.ts';

interface Setup {
  time: VirtualTime;
  queue: CommandQueue;
  written: string[];
  timeouts: string[];
  reply: (line: string) => boolean;
}

function setUp(): Setup {
  const time = new VirtualTime();
  const written: string[] = [];
  const timeouts: string[] = [];
  const queue = new CommandQueue({
    write: (line) => written.push(line) > 0, clock: time, timers: new TimerSet(time), onTimeout: (line) => timeouts.push(line),
  });
  const reply = (line: string): boolean => queue.handleReply(parseDeviceLine(line) as OkReply | ErrReply, line, time.nowUs());
  return { time, queue, written, timeouts, reply };
}

describe('CommandQueue', () => {
  it('writes one command at a time, the next only after the reply, with increasing ids', async () => {
    const { time, written, queue, reply } = setUp();
    const results: CommandOutcome[] = [];
    void queue.submit({ verb: 'lamp-on' }, 3000).then((r) => results.push(r));
    void queue.submit({ verb: 'tare' }, 3000).then((r) => results.push(r));
    expect(written).toEqual([frame('1 lamp on')]);
    expect(queue.length).toBe(2);
    await time.advance(1);
    expect(reply(formatDeviceLine({ type: 'ok', id: 1, fields: {} }))).toBe(true);
    expect(written).toHaveLength(2);
    expect(written[1]).toMatch(/^2 tare\*/);
    reply(formatDeviceLine({ type: 'ok', id: 2, fields: { tare: '84213' } }));
    await time.flush();
    expect(results).toEqual([
      expect.objectContaining({ ok: true, fields: {} }),
      expect.objectContaining({ ok: true, fields: { tare: '84213' } }),
    ]);
    const first = results[0];
    expect(first?.ok === true && first.receivedUs - first.sentUs).toBe(1000);
  });

  it('matches `err -` to the command in flight and ignores replies with another id', async () => {
    const { time, queue, reply } = setUp();
    const result = queue.submit({ verb: 'ping' }, 3000);
    expect(reply(formatDeviceLine({ type: 'ok', id: 99, fields: {} }))).toBe(false);
    expect(reply(formatDeviceLine({ type: 'err', id: null, code: 4 }))).toBe(true);
    await time.flush();
    await expect(result).resolves.toMatchObject({ ok: false, failure: 'err', code: 4 });
  });

  it('times out, reports it, sends the next command, and does not take the late reply for its answer', async () => {
    const { time, queue, written, timeouts, reply } = setUp();
    const slow = queue.submit({ verb: 'tare' }, 500);
    const next = queue.submit({ verb: 'ping' }, 500);
    await time.advance(500);
    await expect(slow).resolves.toEqual({ ok: false, failure: 'timeout', sentUs: 1_000_000 });
    expect(timeouts).toEqual([written[0]]);
    expect(written).toHaveLength(2);
    expect(reply(formatDeviceLine({ type: 'ok', id: 1, fields: { tare: '1' } }))).toBe(false);
    expect(reply(formatDeviceLine({ type: 'ok', id: 2, fields: { t: '5' } }))).toBe(true);
    await expect(next).resolves.toMatchObject({ ok: true, fields: { t: '5' } });
  });

  it('resolves everything `closed` when the port closes, and later commands at once', async () => {
    const { queue } = setUp();
    const a = queue.submit({ verb: 'ping' }, 500);
    const b = queue.submit({ verb: 'ping' }, 500);
    queue.closeAll();
    await expect(Promise.all([a, b, queue.submit({ verb: 'info' }, 500)])).resolves.toEqual([
      { ok: false, failure: 'closed' }, { ok: false, failure: 'closed' }, { ok: false, failure: 'closed' },
    ]);
  });

  it('wraps command ids after 65535', () => {
    const { queue, written, reply } = setUp();
    for (let i = 1; i <= 65536; i++) {
      void queue.submit({ verb: 'ping' }, 500);
      reply(formatDeviceLine({ type: 'ok', id: i % 65536, fields: {} }));
    }
    expect(written.at(-2)).toMatch(/^65535 ping\*/);
    expect(written.at(-1)).toMatch(/^0 ping\*/);
  });
  it('holds one waiting command of a slot: a newer lamp replaces the waiting one, and both callers get its outcome', async () => {
    const { time, written, queue, reply } = setUp();
    const tare = queue.submit({ verb: 'tare' }, 3000);
    // A station that stays online but answers nothing for a while: 1,000 lamp changes meanwhile.
    const lamps = Array.from({ length: 1000 }, (_, i) => queue.submit(i % 2 === 0 ? { verb: 'lamp-on' } : { verb: 'lamp-off' }, 3000, 'lamp'));
    const ping = queue.submit({ verb: 'ping' }, 3000);
    void queue.submit({ verb: 'lamp-on' }, 3000, 'lamp');
    expect(queue.length).toBe(3);
    await time.advance(1);
    reply(formatDeviceLine({ type: 'ok', id: 1, fields: { tare: '1' } }));
    // The newest pattern goes out, in the place of the first lamp command (before the ping queued after it).
    expect(written.at(-1)).toMatch(/^1003 lamp on\*/);
    reply(formatDeviceLine({ type: 'ok', id: 1003, fields: {} }));
    expect(written.at(-1)).toMatch(/^1002 ping\*/);
    reply(formatDeviceLine({ type: 'ok', id: 1002, fields: {} }));
    await time.flush();
    await expect(tare).resolves.toMatchObject({ ok: true });
    for (const lamp of lamps) await expect(lamp).resolves.toMatchObject({ ok: true });
    await expect(ping).resolves.toMatchObject({ ok: true });
    // A lamp command in flight is not replaced: the next one waits its turn.
    void queue.submit({ verb: 'lamp-on' }, 3000, 'lamp');
    void queue.submit({ verb: 'lamp-off' }, 3000, 'lamp');
    expect(queue.length).toBe(2);
  });
});
