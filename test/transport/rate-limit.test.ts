/**
 * The per-client token bucket, the bound on waiting requests, and the dispatcher's use of both (issue 18,
 * item 3): a client beyond its bucket or its share of the queue is answered RATE_LIMITED with the wait, calls
 * no handler, is not remembered as its transaction's answer, and other clients are not affected.
 */
import { describe, expect, it, vi } from 'vitest';
import { RateLimiter, rateLimitProblem } from '../../controller/transport/rate-limit.ts';
import { RequestQueue } from '../../controller/transport/request-queue.ts';
import { RequestDispatcher } from '../../controller/transport/request-dispatcher.ts';
import { PublishPacer } from '../../controller/transport/publish-pacer.ts';

const TOKEN = 'referee-token-0123456789';

describe('RateLimiter', () => {
  it('admits a burst, then one request per 1/rate, and says how long to wait', () => {
    let now = 0;
    const limiter = new RateLimiter({ ratePerS: 10, burst: 3, now: () => now });
    expect([limiter.take('a'), limiter.take('a'), limiter.take('a')].every((x) => x.ok)).toBe(true);
    expect(limiter.take('a')).toEqual({ ok: false, retryAfterMs: 100 });
    now = 40;
    expect(limiter.take('a')).toEqual({ ok: false, retryAfterMs: 60 });
    now = 100;
    expect(limiter.take('a').ok).toBe(true);
    expect(limiter.take('a').ok).toBe(false);
    // Another key has its own bucket.
    expect(limiter.take('b').ok).toBe(true);
    // Refusals do not dig the hole deeper: after the wait it says, the next request is admitted.
    now = 100;
    for (let i = 0; i < 50; i++) limiter.take('a');
    now = 200;
    expect(limiter.take('a').ok).toBe(true);
    expect(limiter.stats()).toMatchObject({ admitted: 6, refused: 53 });
  });

  it('forgets full buckets and keeps at most maxKeys', () => {
    let now = 0;
    const limiter = new RateLimiter({ ratePerS: 1, burst: 2, maxKeys: 100, now: () => now });
    for (let i = 0; i < 1000; i++) limiter.take(`k${i}`);
    expect(limiter.stats().keys).toBeLessThanOrEqual(100);
    now = 10_000;
    limiter.take('x');
    for (let i = 0; i < 100; i++) limiter.take(`y${i}`);
    // The old buckets filled up again: the sweep removed them rather than the live ones.
    expect(limiter.stats().keys).toBeLessThanOrEqual(100);
    expect(limiter.take('y99').ok).toBe(true);
    expect(limiter.take('y99').ok).toBe(false);
  });

  it('refuses unusable settings', () => {
    expect(rateLimitProblem({ ratePerS: 0, burst: 1 })).toMatch(/rate/);
    expect(rateLimitProblem({ ratePerS: 1, burst: 0.5 })).toMatch(/burst/);
    expect(() => new RateLimiter({ ratePerS: Number.NaN, burst: 1 })).toThrow(/rate limit/);
  });
});

describe('PublishPacer', () => {
  it('lets a burst through, then gives each publish of a connection the next slot, and others their own', () => {
    let now = 0;
    const pacer = new PublishPacer({ ratePerS: 100, burst: 2, now: () => now });
    const a = {};
    const b = {};
    expect([pacer.delayMs(a), pacer.delayMs(a)]).toEqual([0, 0]);
    expect([pacer.delayMs(a), pacer.delayMs(a), pacer.delayMs(a)]).toEqual([10, 20, 30]);
    expect(pacer.delayMs(b)).toBe(0);
    now = 30;
    expect(pacer.delayMs(a)).toBe(10);
    expect(pacer.delayedCount).toBe(4);
  });
});

describe('RequestQueue', () => {
  it('bounds what one client and everyone may hold, and frees a place on leave (once)', () => {
    const queue = new RequestQueue({ perClient: 2, total: 3, retryAfterMs: 50 });
    const a1 = queue.enter('a');
    const a2 = queue.enter('a');
    expect(queue.enter('a')).toEqual({ ok: false, retryAfterMs: 50, full: 'client' });
    const b1 = queue.enter('b');
    expect(queue.enter('c')).toMatchObject({ ok: false, full: 'total' });
    if (!a1.ok || !a2.ok || !b1.ok) throw new Error('refused');
    a1.leave();
    a1.leave();
    expect(queue.stats()).toEqual({ waiting: 2, peak: 3, refused: 2 });
    expect(queue.enter('c').ok).toBe(true);
    expect(queue.enter('a').ok).toBe(false);
  });
});

describe('RequestDispatcher limits', () => {
  it('answers RATE_LIMITED with the wait beyond the bucket, per client, and runs the repeat later', async () => {
    let now = 0;
    const d = new RequestDispatcher({ tokens: [{ id: 'ref', token: TOKEN, role: 'referee' }], rateLimit: { ratePerS: 2, burst: 2 }, now: () => now });
    const handler = vi.fn(async () => Promise.resolve({ ok: true as const, data: { seq: 1 } }));
    d.onRequest('next-round', handler);
    const send = async (client: string, transaction: string) => d.dispatch(
      { table: 't1', client, name: 'next-round' }, JSON.stringify({ token: TOKEN, transaction }),
    );
    expect((await send('c1', 'a')).status).toBe('ok');
    expect((await send('c1', 'b')).status).toBe('ok');
    const refused = await send('c1', 'c');
    expect(refused).toEqual({
      status: 'error', data: null, transaction: 'c',
      error: { code: 'RATE_LIMITED', message: 'too many requests: too many requests from this client; retry after 500 ms', retryAfterMs: 500 },
    });
    expect(handler).toHaveBeenCalledTimes(2);
    // Another client is not affected.
    expect((await send('c2', 'c')).status).toBe('ok');
    // After the wait, the same transaction runs (a refusal is not its answer).
    now = 500;
    expect((await send('c1', 'c')).status).toBe('ok');
    expect(handler).toHaveBeenCalledTimes(4);
    expect(d.stats().errors).toEqual({ RATE_LIMITED: 1 });
  });

  it('answers RATE_LIMITED when the client already has its share of the queue waiting', async () => {
    const d = new RequestDispatcher({ tokens: [{ id: 'ref', token: TOKEN, role: 'referee' }], rateLimit: null, queue: { perClient: 2, retryAfterMs: 75 } });
    const release: (() => void)[] = [];
    d.onRequest('next-round', async () => new Promise((resolve) => {
      release.push(() => {
        resolve({ ok: true, data: { seq: 1 } });
      });
    }));
    const send = async (client: string, transaction: string) => d.dispatch(
      { table: 't1', client, name: 'next-round' }, JSON.stringify({ token: TOKEN, transaction }),
    );
    const first = send('c1', 'a');
    const second = send('c1', 'b');
    const third = await send('c1', 'c');
    expect(third.error).toMatchObject({ code: 'RATE_LIMITED', retryAfterMs: 75 });
    const other = send('c2', 'a');
    await vi.waitFor(() => {
      expect(release).toHaveLength(3);
    });
    expect(d.stats().queue).toMatchObject({ waiting: 3, peak: 3, refused: 1 });
    for (const r of release) r();
    expect((await Promise.all([first, second, other])).map((x) => x.status)).toEqual(['ok', 'ok', 'ok']);
    expect(d.stats().queue.waiting).toBe(0);
    // The refused transaction was not remembered: sent again, it runs.
    const again = send('c1', 'c');
    await vi.waitFor(() => {
      expect(release).toHaveLength(4);
    });
    release[3]?.();
    expect((await again).status).toBe('ok');
  });
});
