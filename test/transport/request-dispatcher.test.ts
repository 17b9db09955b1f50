import { afterEach, describe, expect, it, vi } from 'vitest';
import { RequestDispatcher, type RequestDispatcherOptions } from '../../controller/transport/request-dispatcher.ts';
import type { RequestParams } from '../../controller/transport/requests.ts';

const REFEREE_TOKEN = 'referee-token-0123456789';
const CONTROLLER_TOKEN = 'controller-token-0123456789';

function dispatcher(options: Partial<RequestDispatcherOptions> = {}): RequestDispatcher {
  return new RequestDispatcher({
    tokens: [{ id: 'ref', token: REFEREE_TOKEN, role: 'referee' }, { id: 'ctl', token: CONTROLLER_TOKEN, role: 'controller' }],
    ...options,
  });
}

const body = (value: Record<string, unknown>): string => JSON.stringify({ token: REFEREE_TOKEN, ...value });

afterEach(() => {
  vi.useRealTimers();
});

describe('RequestDispatcher', () => {
  it('calls the handler with validated parameters (envelope removed) and the identity', async () => {
    const d = dispatcher();
    const handler = vi.fn(async (params: RequestParams<'enter-dice'>) => Promise.resolve({ ok: true as const, data: { seq: params.d1 + params.d2 } }));
    d.onRequest('enter-dice', handler);
    const response = await d.dispatch({ table: 't1', client: 'c1', name: 'enter-dice' }, body({ transaction: 7, d1: 2, d2: 5 }));
    expect(response).toEqual({ status: 'ok', data: { seq: 7 }, error: null, transaction: 7 });
    expect(handler).toHaveBeenCalledWith({ d1: 2, d2: 5 }, { table: 't1', client: 'c1', identity: { id: 'ref', role: 'referee' }, transaction: 7 });
  });

  it.each([
    ['not JSON', '{"token":', 'BAD_JSON', null],
    ['not UTF-8', Buffer.from([0x7b, 0xff, 0x7d]), 'BAD_JSON', null],
    ['an array', '[1,2]', 'INVALID_REQUEST', null],
    ['a bad transaction', body({ transaction: { nested: true } }), 'INVALID_REQUEST', null],
    ['an unknown name', body({ transaction: 'a' }), 'UNKNOWN_REQUEST', 'a'],
    ['no token', JSON.stringify({ transaction: 'b', d1: 1, d2: 1 }), 'UNAUTHORIZED', 'b'],
    ['a wrong token', JSON.stringify({ transaction: 'c', token: 'referee-token-0123456780', d1: 1, d2: 1 }), 'UNAUTHORIZED', 'c'],
    ['a number out of range', body({ transaction: 'd', d1: 7, d2: 1 }), 'INVALID_REQUEST', 'd'],
    ['an extra parameter', body({ transaction: 'e', d1: 1, d2: 1, sum: 2 }), 'INVALID_REQUEST', 'e'],
    ['a missing parameter', body({ transaction: 'f', d1: 1 }), 'INVALID_REQUEST', 'f'],
    ['a prototype key', `{"token":"${REFEREE_TOKEN}","transaction":"g","d1":1,"d2":1,"__proto__":{"x":1}}`, 'INVALID_REQUEST', 'g'],
  ])('answers %s with %s and calls no handler', async (_what, payload, code, transaction) => {
    const d = dispatcher();
    const handler = vi.fn(async () => Promise.resolve({ ok: true as const, data: { seq: 1 } }));
    d.onRequest('enter-dice', handler);
    const name = code === 'UNKNOWN_REQUEST' ? 'self-destruct' : 'enter-dice';
    const response = await d.dispatch({ table: 't1', client: 'c1', name }, payload);
    expect(response).toMatchObject({ status: 'error', data: null, error: { code }, transaction });
    expect(handler).not.toHaveBeenCalled();
    expect(JSON.stringify(response)).not.toContain(REFEREE_TOKEN);
  });

  it('says which parameter is wrong', async () => {
    const response = await dispatcher().dispatch({ table: 't1', client: 'c1', name: 'new-game' }, body({ game: 'chess', players: ['a'] }));
    expect(response.error?.message).toMatch(/params\/players must NOT have fewer than 2 items/);
  });

  it('refuses oversized payloads before parsing them', async () => {
    const response = await dispatcher({ maxPayloadBytes: 100 }).dispatch({ table: 't1', client: 'c1', name: 'roll' }, body({ pad: 'x'.repeat(200) }));
    expect(response.error?.code).toBe('PAYLOAD_TOO_LARGE');
  });

  it('answers NOT_AVAILABLE when no handler is registered, and after unregistering', async () => {
    const d = dispatcher();
    expect((await d.dispatch({ table: 't1', client: 'c1', name: 'buzzer/arm' }, body({}))).error?.code).toBe('NOT_AVAILABLE');
    const off = d.onRequest('buzzer/arm', async () => Promise.resolve({ ok: true, data: { seq: 1 } }));
    expect((await d.dispatch({ table: 't1', client: 'c1', name: 'buzzer/arm' }, body({}))).status).toBe('ok');
    off();
    expect((await d.dispatch({ table: 't1', client: 'c1', name: 'buzzer/arm' }, body({}))).error?.code).toBe('NOT_AVAILABLE');
  });

  it('passes a handler\'s own rejection code through', async () => {
    const d = dispatcher();
    d.onRequest('roll', async () => Promise.resolve({ ok: false, code: 'NOT_YOUR_TURN', message: 'ana is to roll' }));
    expect(await d.dispatch({ table: 't1', client: 'c1', name: 'roll' }, body({ transaction: 'x' }))).toEqual({
      status: 'error', data: null, error: { code: 'NOT_YOUR_TURN', message: 'ana is to roll' }, transaction: 'x',
    });
  });

  it('answers HANDLER_FAILED when the handler throws or returns garbage, without the error text', async () => {
    const warnings: string[] = [];
    const d = dispatcher({ logger: { debug: () => undefined, info: () => undefined, warn: (m) => warnings.push(m) } });
    d.onRequest('roll', () => {
      throw new Error('secret internals');
    });
    d.onRequest('undo', async () => Promise.resolve(undefined as never));
    const thrown = await d.dispatch({ table: 't1', client: 'c1', name: 'roll' }, body({}));
    expect(thrown.error?.code).toBe('HANDLER_FAILED');
    expect(JSON.stringify(thrown)).not.toContain('secret internals');
    expect((await d.dispatch({ table: 't1', client: 'c1', name: 'undo' }, body({}))).error?.code).toBe('HANDLER_FAILED');
    expect(warnings).toHaveLength(2);
  });

  it('answers TIMEOUT once when the handler hangs, and ignores its late answer', async () => {
    vi.useFakeTimers();
    const d = dispatcher({ timeoutMs: 1000 });
    let finish: (() => void) | undefined;
    d.onRequest('roll', async () => new Promise((resolve) => {
      finish = () => {
        resolve({ ok: true, data: { seq: 1, d1: 1, d2: 1 } });
      };
    }));
    const pending = d.dispatch({ table: 't1', client: 'c1', name: 'roll' }, body({ transaction: 'slow' }));
    await vi.advanceTimersByTimeAsync(1000);
    expect((await pending).error?.code).toBe('TIMEOUT');
    finish?.();
    expect(d.stats()).toMatchObject({ received: 1, ok: 0, errors: { TIMEOUT: 1 } });
  });

  it('replays a repeated transaction (also while the first is still running) and runs it once', async () => {
    const d = dispatcher();
    let release: (() => void) | undefined;
    const handler = vi.fn(async () => new Promise<{ ok: true; data: { seq: number; d1: number; d2: number } }>((resolve) => {
      release = () => {
        resolve({ ok: true, data: { seq: 5, d1: 6, d2: 6 } });
      };
    }));
    d.onRequest('roll', handler);
    const first = d.dispatch({ table: 't1', client: 'c1', name: 'roll' }, body({ transaction: 'dup' }));
    const second = d.dispatch({ table: 't1', client: 'c1', name: 'roll' }, body({ transaction: 'dup' }));
    release?.();
    expect(await second).toEqual(await first);
    expect((await d.dispatch({ table: 't1', client: 'c1', name: 'roll' }, body({ transaction: 'dup' }))).data).toEqual({ seq: 5, d1: 6, d2: 6 });
    expect(handler).toHaveBeenCalledTimes(1);
    expect(d.stats().replayed).toBe(2);
  });

  it('keys transactions by table, request, identity and value, and forgets them after the window', async () => {
    let now = 0;
    const d = dispatcher({ idempotencyWindowMs: 1000, now: () => now });
    const handler = vi.fn(async () => Promise.resolve({ ok: true as const, data: { seq: 1, d1: 1, d2: 1 } }));
    d.onRequest('roll', handler);
    d.onRequest('undo', async () => Promise.resolve({ ok: true as const, data: { seq: 1 } }));
    await d.dispatch({ table: 't1', client: 'c1', name: 'roll' }, body({ transaction: 'k' }));
    await d.dispatch({ table: 't2', client: 'c1', name: 'roll' }, body({ transaction: 'k' }));
    await d.dispatch({ table: 't1', client: 'c1', name: 'roll' }, JSON.stringify({ token: CONTROLLER_TOKEN, transaction: 'k' }));
    await d.dispatch({ table: 't1', client: 'c1', name: 'roll' }, body({ transaction: 1 }));
    await d.dispatch({ table: 't1', client: 'c1', name: 'roll' }, body({ transaction: '1' }));
    expect(handler).toHaveBeenCalledTimes(5);
    await d.dispatch({ table: 't1', client: 'c1', name: 'roll' }, body({ transaction: 'k' }));
    expect(handler).toHaveBeenCalledTimes(5);
    now = 1001;
    await d.dispatch({ table: 't1', client: 'c1', name: 'roll' }, body({ transaction: 'k' }));
    expect(handler).toHaveBeenCalledTimes(6);
  });

  it('does not cache refusals before the token check, so a corrected request runs', async () => {
    const d = dispatcher();
    const handler = vi.fn(async () => Promise.resolve({ ok: true as const, data: { seq: 1, d1: 1, d2: 1 } }));
    d.onRequest('roll', handler);
    expect((await d.dispatch({ table: 't1', client: 'c1', name: 'roll' }, JSON.stringify({ transaction: 'z' }))).error?.code).toBe('UNAUTHORIZED');
    expect((await d.dispatch({ table: 't1', client: 'c1', name: 'roll' }, body({ transaction: 'z' }))).status).toBe('ok');
    expect(handler).toHaveBeenCalledTimes(1);
  });

  it('refuses unusable tokens at construction', () => {
    expect(() => new RequestDispatcher({ tokens: [{ id: 'a', token: 'short', role: 'referee' }] })).toThrow(/shorter than 16/);
    expect(() => new RequestDispatcher({
      tokens: [{ id: 'a', token: REFEREE_TOKEN, role: 'referee' }, { id: 'b', token: REFEREE_TOKEN, role: 'referee' }],
    })).toThrow(/used twice/);
  });
});
