/**
 * The Killer-21 page's sentences, read from public views the real engine produced (a scenario setup, then the
 * actions of K21-T-17: a Killer, a red 0 on the deadline, the window closed by the table's timer): what the
 * page, the overview and the referee read, and the outcome line of the simulator panel.
 */
import { describe, expect, it } from 'vitest';
import { PUBLIC } from '../../../controller/rules/common/viewer.ts';
import { EVENT_TYPES, killer21Engine, type Killer21Event, type Killer21PublicView, type Killer21State } from '../../../controller/rules/killer-21/index.ts';
import { cardLabel, cardName, kindName } from '../../../dashboard/web/games/killer-21/card-names.ts';
import { outcomeAfter } from '../../../dashboard/web/games/killer-21/outcome.ts';
import {
  answerText, bannerText, countdownFraction, countdownText, describeK21Event, directionText, overviewLine, refusalText, ties,
  zeroTieSentence,
} from '../../../dashboard/web/games/killer-21/text.ts';
import type { PublicEventJson } from '../../../dashboard/web/types.ts';
import { run, scenario } from '../../rules/killer-21/helpers.ts';

const SETUP = {
  players: ['A', 'B', 'C', 'D'], total: 12,
  hands: { A: ['KILLER', 'R1'], B: ['R0', 'R5'], C: ['R0', 'R6'], D: ['R7'] },
};

const publicView = (s: Killer21State): Killer21PublicView => killer21Engine.view(s, PUBLIC) as Killer21PublicView;

/** Engine events as the store holds them: with `seq` and `at`. */
function published(events: readonly Killer21Event[], from = 1): PublicEventJson[] {
  return events.map((e, i): PublicEventJson => ({ ...e, seq: from + i, at: 1_760_000_000_000 + i }));
}

describe('Killer-21 texts from the engine\'s public view', () => {
  const start = scenario(SETUP);
  const killer = run(start, { type: 'play', player: 'A', card: 'KILLER-1', at: 1000 });
  const tied = run(killer.state, { type: 'respond', player: 'B', card: 'R0-1', at: 3990, uncertaintyMs: 20 });
  const closed = run(tied.state, { type: 'close-window', at: 4000 });

  it('names cards and says whose turn it is, and the direction', () => {
    expect(cardName('R5-2')).toBe('red 5');
    expect(cardName('DRAW2-1')).toBe('Draw 2');
    expect(cardLabel('KILLER-1')).toBe('Killer (KILLER-1)');
    expect(cardLabel('Z1')).toBe('Z1');
    expect(kindName('REVERSE')).toBe('Reverse');
    const view = publicView(start);
    expect(bannerText(view)).toBe('A to play');
    expect(directionText(view)).toBe('↻ clockwise');
    expect(overviewLine(view)).toEqual({ game: 'Killer-21', players: 'A (5 lives), B (5 lives), C (5 lives), D (5 lives)', phase: 'round 1, A to play, total 12' });
  });

  it('counts the Killer window down by the screen\'s clock and lists the answers', () => {
    const w = publicView(killer.state).killer;
    if (w === null) return expect.fail('no Killer window');
    expect(w.deadline).toBe(4000);
    expect(bannerText(publicView(killer.state))).toBe('KILLER by A! Put a red 0 on your pad within 3.0 s');
    expect(countdownText(w, 1600)).toBe('2.4 s left');
    expect(countdownFraction(w, 1600)).toBeCloseTo(0.8);
    expect(countdownText(w, 4000)).toBe('time is up');
    expect(countdownFraction(w, 9000)).toBe(0);
    expect(w.required.map((p) => answerText(w.answers[p]))).toEqual(['waiting', 'waiting', 'waiting', 'waiting']);
    expect(countdownText({ ...w, deadline: null }, 1600)).toBe('untimed: open until everyone has answered or the referee closes it');
  });

  it('gives the referee a zero on the deadline with its figures, and keeps the zero\'s card secret', () => {
    const w = publicView(closed.state).killer;
    if (w === null) return expect.fail('no Killer window');
    expect(ties(w)).toEqual(['B']);
    expect(zeroTieSentence('B', w)).toBe('B\'s red 0 landed 10.0 ms before the deadline, ±20.0 ms: in time?');
    expect(countdownText(w, 5000)).toBe('closed: a red 0 on the deadline waits for the referee');
    expect(answerText(w.answers.B)).toBe('red 0 on the deadline: the referee rules');
    expect(answerText(w.answers.C)).toBe('no answer: loses a life');
    expect(bannerText(publicView(closed.state))).toBe('KILLER: the window has closed — waiting for the referee');
    expect(JSON.stringify(publicView(closed.state))).not.toContain('R0-1');
  });

  it('describes every event the engine emits in words of its own', () => {
    const events = published([...killer.events, ...tied.events, ...closed.events]);
    expect(events.map((e) => describeK21Event(e))).toEqual([
      'A played Killer: total 12',
      'KILLER by A! A, B, C and D must answer with a red 0',
      'B: red 0 on the deadline (±20.0 ms): the referee rules',
      'Killer window closed: its time ran out; no answer from A, C and D',
    ]);
    // No event type falls through to the generic line (its type in lower case).
    for (const type of EVENT_TYPES) {
      const text = describeK21Event({ type, seq: 1, at: 0, player: 'A', players: ['A'], winners: ['A'], missing: [], withoutZero: [] });
      expect(text, type).not.toBe(type.toLowerCase().replaceAll('_', ' '));
    }
  });

  it('says why an action was refused in words (refusal-text.ts), a hidden reason as hidden', () => {
    expect(describeK21Event({ type: 'ACTION_REFUSED', seq: 9, at: 0, action: 'play', code: 'NOT_YOUR_TURN' }))
      .toBe('A play was refused: only the player on turn plays a card or says "I can\'t"');
    expect(refusalText('HIDDEN_REASON', 'play refused for a reason that depends on hidden information (the referee finds it in the event log)'))
      .toBe('the reason is hidden: it depends on the cards in hand');
    expect(describeK21Event({ type: 'NOTICE', seq: 9, at: 0, code: 'UNKNOWN_TAG', message: 'a tag nobody enrolled', station: 'seat-2' }))
      .toBe('seat-2: a tag nobody enrolled (UNKNOWN_TAG)');
  });

  it('finds a simulated action\'s outcome in the events after it', () => {
    const events = published(killer.events, 5);
    expect(outcomeAfter(events, 6)).toEqual({ kind: 'pending' });
    expect(outcomeAfter(events, 4)).toEqual({ kind: 'applied', text: 'A played Killer: total 12; KILLER by A! A, B, C and D must answer with a red 0' });
    const refused = [...events, { type: 'ACTION_REFUSED', seq: 7, at: 0, action: 'play', code: 'NOT_YOUR_TURN' }];
    // The simulator knows whose action the table made of it (the player on turn, for a card on the pile).
    const o = outcomeAfter(refused, 6, (p) => p, 'Cy');
    expect(o).toMatchObject({ kind: 'refused', code: 'NOT_YOUR_TURN' });
    expect(o.kind === 'refused' ? o.text : '').toBe('Cy\'s play was refused: only the player on turn plays a card or says "I can\'t"');
  });
});
