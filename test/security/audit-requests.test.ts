/**
 * Issue 18, item 2, the list and the limit (audit.test.ts checks them from outside on both brokers): every
 * referee request whose answer may depend on a hidden fact is listed on the public audit trail — in every game,
 * `register-hand`, `play` naming another player's card, `undo`, a `correct` with such an action, the
 * simulator's item ops — with who, from which client, what and when, and never the card, the barrel or the
 * outcome; requests that tell nothing hidden are not listed; the limit per token holder is a burst of 20, then
 * one a second, and a refused request is listed as refused.
 */
import { describe, expect, it } from 'vitest';
import { HIDDEN_ACTION_TYPES as K21 } from '../../controller/rules/killer-21/public-refusal.ts';
import { HIDDEN_ACTION_TYPES as ZAPP } from '../../controller/rules/zapp-zerapp/public-refusal.ts';
import { HIDDEN_ACTION_TYPES as ZIP } from '../../controller/rules/zip-zap/public-refusal.ts';
import { AuditTrail, hiddenFactRequest } from '../../controller/transport/audit-log.ts';

describe('the audit trail lists requests on hidden facts', () => {
  it('lists every engine action whose refusal may be hidden, in every game, as action and as correct', () => {
    for (const type of [...ZIP, ...K21, ...ZAPP]) {
      for (const request of ['action', 'correct']) {
        const listed = hiddenFactRequest(request, { action: { type, player: 'ben', card: 'R7-5', barrel: 9 } });
        expect(listed, `${request} ${type}`).toEqual({ request, action: type, player: 'ben' });
      }
    }
    // The three the issue names, by name: a hand registered, another player's card played, an undo.
    for (const type of ['register-hand', 'play']) expect(ZIP.includes(type) && K21.includes(type)).toBe(true);
    expect(hiddenFactRequest('undo', { reason: 'checking' })).toEqual({ request: 'undo' });
    expect(hiddenFactRequest('simulate', { op: 'tap', station: 'seat-2', item: 'k21:R7-5' })).toEqual({ request: 'simulate', action: 'tap', station: 'seat-2' });
  });

  it('does not list requests that tell nothing hidden', () => {
    for (const type of ['roll', 'move', 'next-round', 'resolve-tie', 'skip-registration']) {
      expect(hiddenFactRequest('action', { action: { type } }), type).toBeUndefined();
    }
    for (const name of ['new-game', 'remove-station', 'roll']) expect(hiddenFactRequest(name, {}), name).toBeUndefined();
  });

  it('limits each token holder to a burst of 20 then one a second, lists refusals, and keeps no card or outcome', () => {
    let now = 0;
    const trail = new AuditTrail({ epoch: 1, now: () => now, clock: () => 1_760_000_000_000 + now });
    const what = { request: 'action', action: 'play', player: 'ben' } as const;
    const answers = Array.from({ length: 25 }, () => trail.admit('t1', 'dashboard', 'ref-1', what));
    expect(answers.filter((a) => a.admission.ok)).toHaveLength(20);
    const last = answers.at(-1);
    expect(last?.admission).toMatchObject({ ok: false });
    expect(last?.payload.total).toBe(25);
    expect(last?.payload.entries.filter((e) => e.admitted === 'refused')).toHaveLength(5);
    // Another holder has their own bucket; after a second the first gets one more.
    expect(trail.admit('t1', 'scorer', 'ref-2', what).admission.ok).toBe(true);
    now += 1000;
    expect(trail.admit('t1', 'dashboard', 'ref-1', what).admission.ok).toBe(true);
    expect(trail.admit('t1', 'dashboard', 'ref-1', what).admission.ok).toBe(false);
    const entry = last?.payload.entries[0];
    expect(Object.keys(entry ?? {}).sort()).toEqual(['action', 'admitted', 'at', 'by', 'client', 'player', 'request']);
  });
});
