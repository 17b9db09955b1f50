/**
 * Issue 18, item 3, from outside: one referee floods the table with requests as fast as its connection takes
 * them (without waiting for any PUBACK), on the embedded broker and on a real Mosquitto with the generated
 * configuration. Every request is answered exactly once — by its handler, or RATE_LIMITED with a retry time —
 * the flooder's requests beyond its bucket are refused, another referee's requests keep being answered by
 * their handlers, the queue of waiting requests stays within its bound (read from `bridge/health`, as an
 * operator would), and the counts on `bridge/health` match what the flooder received. Bounds are generous:
 * speed figures come from `zaptable bench flood` (docs/performance.md), not from this test.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { BridgeHealthPayload, ResponsePayload } from '../../controller/transport/payloads.ts';
import { BASE, BROKERS, RIG_CONTROLLER, Inbox, Referee, TOKEN, VIEWER, client, startRig, type Rig, type TableSpec } from './support/rig.ts';

let rig: Rig | undefined;
const closers: (() => Promise<void>)[] = [];

afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
  await rig?.dispose();
  rig = undefined;
});

const QUIZ: TableSpec = { id: 'quiz', mode: 'buzzer', seats: ['ana', 'ben'] };
const ZIP: TableSpec = { id: 't1', mode: 'zip-zap', seats: ['ana', 'ben'] };

async function referee(url: string, id?: string): Promise<Referee> {
  const r = await Referee.connect(url, id);
  closers.push(async () => r.close());
  return r;
}

describe.each(BROKERS)('a flood from one client on %s', (broker) => {
  it('is answered once per request, RATE_LIMITED beyond the bucket, while another client is served', async () => {
    rig = await startRig({ broker, tables: [QUIZ, ZIP] });
    const flooder = await referee(rig.brokerUrl);
    const calm = await referee(rig.brokerUrl);
    const viewerClient = await client(rig.brokerUrl, VIEWER);
    closers.push(async () => viewerClient.endAsync(true));
    const viewer = new Inbox(viewerClient);
    await viewerClient.subscribeAsync(`${BASE}/bridge/${RIG_CONTROLLER}/health`, { qos: 1 });
    const health = (): BridgeHealthPayload | undefined => viewer.json(`${BASE}/bridge/${RIG_CONTROLLER}/health`).at(-1) as BridgeHealthPayload | undefined;
    await viewer.waitFor(health, 'the first bridge health');

    // 10,000 requests at once: valid score changes, malformed ones, and requests to the other table. None waits
    // for its PUBACK (an attacker does not), so they arrive as fast as the connection carries them (on the
    // embedded broker: as fast as its pace of 500 a second lets them in, so this takes 20 s or more).
    const total = 10_000;
    const kinds = [
      ['quiz', 'buzzer/score', (i: number) => JSON.stringify({ transaction: `f-${i}`, token: TOKEN, entrant: 'ana', delta: 1 })],
      ['t1', 'next-round', (i: number) => JSON.stringify({ transaction: `f-${i}`, token: TOKEN })],
      ['quiz', 'buzzer/mark', (i: number) => JSON.stringify({ transaction: `f-${i}`, token: 'wrong-token-wrong-token' })],
      ['t1', 'action', (i: number) => JSON.stringify({ transaction: `f-${i}`, token: TOKEN, action: {} })],
    ] as const;
    for (let i = 0; i < total; i++) {
      const [table, name, body] = kinds[i % kinds.length] ?? kinds[0];
      flooder.mqttClient.publish(flooder.requestTopic(table, name), body(i), { qos: 1 });
    }
    // Meanwhile the other referee sends 20 requests one after the other; each must be run by its handler.
    const calmAnswers: ResponsePayload[] = [];
    for (let i = 0; i < 20; i++) calmAnswers.push(await calm.request('quiz', 'buzzer/score', { entrant: 'ben', delta: 1 }));
    expect(calmAnswers.map((a) => a.status)).toEqual(calmAnswers.map(() => 'ok'));
    expect(calmAnswers.at(-1)).toMatchObject({ data: { total: 20 } });

    // Counted without parsing (parsing every message at each arrival would be quadratic); parsed once below.
    const arrived = (): number => flooder.inbox.messages.length;
    await flooder.inbox.waitFor(() => (arrived() >= total ? true : undefined), `${total} responses`, 150_000)
      .catch((error: unknown) => { throw new Error(`${arrived()} of ${total} answered: ${String(error).slice(0, 300)}`); });
    const answers = flooder.responses();
    // Exactly once each: every transaction f-0 … f-9999, no other, no repeat.
    const seen = new Map<unknown, number>();
    for (const a of answers) seen.set(a.transaction, (seen.get(a.transaction) ?? 0) + 1);
    expect(seen.size).toBe(total);
    expect([...seen.values()].every((n) => n === 1)).toBe(true);
    const limited = answers.filter((a) => a.status === 'error' && a.error.code === 'RATE_LIMITED');
    const scored = answers.filter((a) => a.status === 'ok');
    // The bucket holds 200 and refills at 100/s: most of the flood is refused, and every refusal says when to retry.
    expect(limited.length).toBeGreaterThan(total / 2);
    for (const a of limited) expect(a.error?.retryAfterMs).toBeGreaterThan(0);
    expect(scored.length).toBeLessThan(total / 4);
    // Whatever was admitted ran: the score is the admitted scores plus the calm referee's.
    const ana = scored.filter((a) => typeof a.transaction === 'string' && Number(a.transaction.slice(2)) % kinds.length === 0);
    expect(ana.length).toBe(scored.length);
    expect(await calm.request('quiz', 'buzzer/score', { entrant: 'ana', delta: 0 })).toMatchObject({ status: 'ok', data: { total: ana.length } });

    // bridge/health counts the refusals and the queue never held more than its bound (32 per client).
    const final = await viewer.waitFor(() => {
      const h = health();
      return h !== undefined && (h.requests.errors.RATE_LIMITED ?? 0) === limited.length ? h : undefined;
    }, 'bridge health with every RATE_LIMITED counted', 10_000);
    expect(final.requests.queuePeak).toBeGreaterThan(0);
    expect(final.requests.queuePeak).toBeLessThanOrEqual(32 + 1);
    // The embedded broker held the flood back (at 500 a second) instead of reading it all at once.
    if (broker === 'embedded') expect(final.broker?.pacedPublishes).toBeGreaterThan(total / 2);
    else expect(final.broker).toBeNull();
  }, 300_000);
});
