/**
 * realScheduler decides after the lines that arrived by its deadline have been read: a timer that comes due
 * while the event loop is busy must not run before the poll phase hands over data that was already waiting.
 * Shown with a real socket: its data arrives during a stall that outlasts the deadline.
 */
import { createServer, connect, type Server, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { realScheduler } from '../../controller/runtime/ports.ts';

let server: Server | undefined;
let sockets: Socket[] = [];

afterEach(async () => {
  for (const s of sockets) s.destroy();
  sockets = [];
  await new Promise<void>((resolve) => {
    if (server === undefined) resolve();
    else server.close(() => {
      resolve();
    });
  });
  server = undefined;
});

/** A connected pair: `send` writes to the server side, `received` listens on the client side. */
async function socketPair(): Promise<{ send: Socket; received: Socket }> {
  const accepted = new Promise<Socket>((resolve) => {
    server = createServer(resolve);
  });
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
  const address = server?.address();
  if (address === null || typeof address !== 'object') throw new Error('no address');
  const client = connect(address.port, '127.0.0.1');
  await new Promise<void>((resolve) => client.once('connect', resolve));
  const send = await accepted;
  sockets.push(client, send);
  return { send, received: client };
}

function stall(ms: number): void {
  const until = Date.now() + ms;
  while (Date.now() < until) { /* the event loop is busy */ }
}

describe('realScheduler', () => {
  it('runs a deadline that came due during a stall after the data that arrived during it', async () => {
    const { send, received } = await socketPair();
    const order: string[] = [];
    received.on('data', () => order.push('data'));
    const done = new Promise<void>((resolve) => {
      realScheduler.after(5, () => {
        order.push('deadline');
        resolve();
      });
    });
    send.write('TAG+ seat-2\n');
    stall(60); // the deadline (5 ms) and the line are both waiting when the loop wakes
    await done;
    expect(order).toEqual(['data', 'deadline']);
  });

  it('can be cancelled before and after its timer fired', async () => {
    let ran = 0;
    realScheduler.after(1, () => ran++)();
    const cancel = realScheduler.after(1, () => ran++);
    // A timer made after it with the same delay fires after it in the same timers phase, before the immediate
    // its timer queued: cancelling there is "after its timer fired". Both are due once the stall ends (a wait
    // for a timer of its own instead was flaky: on a busy machine the scheduler's timer could fire alone, and its
    // immediate run, before the wait's timer did).
    const cancelled = new Promise<void>((resolve) => {
      setTimeout(() => {
        cancel();
        resolve();
      }, 1);
    });
    stall(5);
    await cancelled;
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(ran).toBe(0);
    // The same without the cancel runs: the check above could fail.
    realScheduler.after(1, () => ran++);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(ran).toBe(1);
  });
});
