/** The pure buzzer logic: arbitration by device time, ties, false starts, the modes events use. */
import { describe, expect, it } from 'vitest';
import { buzzerLamps, buzzerView, parseBuzzerAction, rankPresses, replaySession, type AcceptedPress } from '../../controller/buzzer/index.ts';
import { at, devicePress, Session, setup } from './helpers.ts';

const ARM = 1_000_000;

describe('first press wins by device time', () => {
  it('an earlier press that arrives later still wins', () => {
    const s = new Session();
    s.arm(ARM);
    // ben pressed at +300 ms but his line arrived first; ana pressed at +299 ms, her line 12 ms later.
    s.do(devicePress('ben', ARM + 300_000, { arriveUs: ARM + 305_000 }));
    s.do(devicePress('ana', ARM + 299_000, { arriveUs: ARM + 317_000 }));
    expect(s.state.phase).toBe('judging');
    const events = s.decide();
    expect(events).toContainEqual(expect.objectContaining({ type: 'WINNER', contestant: 'ana', reactionUs: 299_000, marginUs: 1000,
      // ±100 µs of clock sync each, and ben's 80 µs interrupt latency (scaled by the 1 % rate bound) facing ana.
      marginUncertaintyUs: 280.8 }));
    const view = buzzerView(s.state);
    expect(view.winners).toEqual(['ana']);
    expect(view.ranking.map((r) => [r.contestant, r.place, r.delayUs])).toEqual([['ana', 1, 0], ['ben', 2, 1000]]);
  });

  it('the window closes after the arbitration window plus twice the first press\'s uncertainty', () => {
    const s = new Session(setup({ arbitrationWindowMs: 30, maxExtraWindowMs: 20 }));
    s.arm(ARM);
    s.do(devicePress('ben', ARM + 300_000, { arriveUs: ARM + 305_000, u: 3000 }));
    expect(s.state.timers.decideAtUs).toBe(ARM + 305_000 + 36_000);
  });

  it('a press arriving after the decision is ranked behind, and flagged when it would have won', () => {
    const s = new Session();
    s.arm(ARM);
    s.do(devicePress('ben', ARM + 300_000, { arriveUs: ARM + 305_000 }));
    s.decide();
    const late = s.do(devicePress('cy', ARM + 400_000, { arriveUs: ARM + 410_000 }));
    expect(late).toEqual([expect.objectContaining({ type: 'BUZZ', contestant: 'cy', place: 2, delayUs: 100_000 })]);
    const earlier = s.do(devicePress('ana', ARM + 200_000, { arriveUs: ARM + 500_000 }));
    expect(earlier.map((e) => e.type)).toEqual(['BUZZ', 'LATE_EARLIER_PRESS']);
    expect(buzzerView(s.state)).toMatchObject({ winners: ['ben'], disputed: true });
  });
});

describe('same station: raw device time decides', () => {
  it('orders two presses of one station by device µs even when their mapped times are reversed', () => {
    const p = (contestant: string, deviceUs: number, hostUs: number): AcceptedPress => ({
      contestant, entrant: contestant, station: 'seat-1', arrivedUs: hostUs,
      time: { source: 'device', epoch: 3, deviceUs, rawUs: deviceUs, hostUs, uncertaintyUs: 150, beforeUs: 0, afterUs: 0 },
    });
    // 12 µs apart on the device; mapped at different moments, the later one came out 5 µs earlier.
    const ranking = rankPresses([p('b', 5_000_012, 9_000_000), p('a', 5_000_000, 9_000_005)], { deviceResolutionUs: 4 });
    expect(ranking.rows.map((r) => [r.press.contestant, r.place, r.tie, r.delayUs])).toEqual([['a', 1, false, 0], ['b', 2, false, 12]]);
  });
});

describe('the button\'s own interval', () => {
  it('widens each press by its interrupt latency: 250 µs apart at ±100 µs is ordered without it, a tie with it', () => {
    const rank = (beforeUs: number) => {
      const s = new Session();
      s.arm(ARM);
      s.do(devicePress('ana', ARM + 300_000, { beforeUs }));
      s.do(devicePress('ben', ARM + 300_250, { beforeUs }));
      return s.decide();
    };
    expect(rank(0)).toEqual([expect.objectContaining({ type: 'WINNER', contestant: 'ana', marginUs: 250, marginUncertaintyUs: 200 })]);
    // Ben's edge may have been 80 µs before his stamp: 250 < 100 + 100 + 80 × 1.01.
    expect(rank(80)).toEqual([expect.objectContaining({ type: 'TIE', contestants: ['ana', 'ben'], separationUs: 250, combinedUncertaintyUs: 280.8 })]);
  });

  it('reads presses logged before they carried it as having none, and refuses a negative one', () => {
    const logged = JSON.parse(JSON.stringify(devicePress('ana', ARM + 300_000))) as { time: Record<string, unknown> };
    delete logged.time.beforeUs;
    delete logged.time.afterUs;
    expect(parseBuzzerAction(logged)).toMatchObject({ type: 'press', time: { beforeUs: 0, afterUs: 0 } });
    expect(parseBuzzerAction({ ...logged, time: { ...logged.time, beforeUs: -5 } })).toEqual({ error: 'press: bad fields' });
  });
});

describe('ties are explicit', () => {
  it('overlapping intervals give a TIE with the figures, and marking needs a name', () => {
    const s = new Session();
    s.arm(ARM);
    s.do(devicePress('ana', ARM + 300_000, { u: 150 }));
    s.do(devicePress('ben', ARM + 300_120, { u: 150 }));
    s.do(devicePress('cy', ARM + 310_000, { u: 150 }));
    const events = s.decide();
    // 150 + 150 µs of clock sync, plus ben's 80 µs interrupt latency × 1.01 on the side facing ana.
    expect(events).toEqual([{ type: 'TIE', question: 1, contestants: ['ana', 'ben'], separationUs: 120, combinedUncertaintyUs: 380.8 }]);
    const view = buzzerView(s.state);
    expect(view.tie).toEqual({ members: ['ana', 'ben'], separationUs: 120, combinedUncertaintyUs: 380.8 });
    expect(view.ranking.map((r) => [r.contestant, r.place, r.tie])).toEqual([['ana', 1, true], ['ben', 1, true], ['cy', 3, false]]);
    expect(s.try({ type: 'mark', at: at(ARM + 2e6), by: 'host', correct: true })).toMatchObject({ ok: false, code: 'TIE_NEEDS_CONTESTANT' });
    s.do({ type: 'mark', at: at(ARM + 2e6), by: 'host', correct: true, contestant: 'ben' });
    expect(s.state.scores).toEqual({ ana: 0, ben: 1, cy: 0 });
  });
});

describe('false starts', () => {
  it('a press before arming locks the contestant out for penaltyMs after the press, then allows them', () => {
    const s = new Session(setup({ penaltyMs: 250 }));
    const fs = s.do(devicePress('ana', ARM - 100_000, { arriveUs: ARM - 95_000 }));
    expect(fs).toEqual([expect.objectContaining({ type: 'FALSE_START', contestant: 'ana', earlyByUs: null, penaltyMs: 250 })]);
    s.arm(ARM);
    expect(buzzerLamps(s.state, ARM)).toMatchObject({ ana: 'blink-fast', ben: 'pulse' });
    // Still inside the penalty (until ARM + 150 ms): locked out, not ranked.
    expect(s.do(devicePress('ana', ARM + 100_000))).toEqual([expect.objectContaining({ type: 'LOCKED_OUT', contestant: 'ana', reason: 'false-start' })]);
    expect(s.state.phase).toBe('armed');
    // After the penalty: counts.
    s.do(devicePress('ana', ARM + 200_000));
    expect(s.decide()).toContainEqual(expect.objectContaining({ type: 'WINNER', contestant: 'ana' }));
  });

  it('a press stamped before the arm is a false start even when its line arrives after it', () => {
    const s = new Session();
    s.arm(ARM);
    const events = s.do(devicePress('ben', ARM - 2000, { arriveUs: ARM + 6000 }));
    expect(events).toEqual([expect.objectContaining({ type: 'FALSE_START', contestant: 'ben', earlyByUs: 2000 })]);
    expect(buzzerView(s.state).falseStarts).toEqual([{ contestant: 'ben', earlyByUs: 2000 }]);
  });
});

describe('modes', () => {
  it('one buzz per contestant per question: after a wrong answer the question re-arms without those who buzzed', () => {
    const s = new Session();
    s.arm(ARM);
    s.do(devicePress('ana', ARM + 300_000));
    s.do(devicePress('ben', ARM + 350_000));
    s.decide();
    const marked = s.do({ type: 'mark', at: at(ARM + 3e6), by: 'host', correct: false });
    expect(marked.map((e) => e.type)).toEqual(['MARKED', 'BUZZER_ARMED']);
    expect(s.state).toMatchObject({ question: 1, round: 2, phase: 'armed' });
    expect(s.do(devicePress('ana', ARM + 3.2e6))).toEqual([expect.objectContaining({ type: 'LOCKED_OUT', reason: 'wrong' })]);
    expect(s.do(devicePress('ben', ARM + 3.3e6))).toEqual([expect.objectContaining({ type: 'LOCKED_OUT', reason: 'already-buzzed' })]);
    s.do(devicePress('cy', ARM + 3.4e6));
    expect(s.decide()).toContainEqual(expect.objectContaining({ type: 'WINNER', contestant: 'cy' }));
  });

  it('without oneBuzzPerQuestion the runner-up may buzz again after a wrong answer', () => {
    const s = new Session(setup({ oneBuzzPerQuestion: false }));
    s.arm(ARM);
    s.do(devicePress('ana', ARM + 300_000));
    s.do(devicePress('ben', ARM + 350_000));
    s.decide();
    s.do({ type: 'mark', at: at(ARM + 3e6), by: 'host', correct: false });
    s.do(devicePress('ben', ARM + 3.3e6));
    expect(s.decide()).toContainEqual(expect.objectContaining({ type: 'WINNER', contestant: 'ben' }));
  });

  it('team lockout: only the team\'s first press ranks; the teammates are locked', () => {
    const contestants = [
      { id: 'ana', name: 'Ana', colour: 'red', station: 'seat-1', team: 'reds' },
      { id: 'ben', name: 'Ben', colour: 'red', station: 'seat-2', team: 'reds' },
      { id: 'cy', name: 'Cy', colour: 'blue', station: 'seat-3', team: null },
    ];
    const s = new Session(setup({ contestants, teams: [{ id: 'reds', name: 'Reds', members: ['ana', 'ben'] }] }));
    s.arm(ARM);
    s.do(devicePress('ben', ARM + 300_000));
    s.do(devicePress('ana', ARM + 300_050));
    s.do(devicePress('cy', ARM + 301_000));
    const events = s.decide();
    expect(events).toContainEqual(expect.objectContaining({ type: 'LOCKED_OUT', contestant: 'ana', reason: 'team' }));
    expect(events).toContainEqual(expect.objectContaining({ type: 'WINNER', contestant: 'ben', team: 'reds' }));
    expect(buzzerView(s.state).ranking.map((r) => r.contestant)).toEqual(['ben', 'cy']);
    s.do({ type: 'mark', at: at(ARM + 2e6), by: 'host', correct: true });
    expect(s.state.scores).toEqual({ reds: 1, cy: 0 });
  });

  it('auto-reset re-arms the next question autoResetMs after the decision', () => {
    const s = new Session(setup({ lockout: 'auto-reset', autoResetMs: 3000 }));
    s.arm(ARM);
    s.do(devicePress('ana', ARM + 300_000));
    s.decide();
    const due = s.state.timers.autoResetAtUs;
    expect(due).toBe((s.state.decision?.atUs ?? 0) + 3_000_000);
    const events = s.do({ type: 'auto-reset', at: at(due ?? 0) });
    expect(events.map((e) => e.type)).toEqual(['RESET', 'BUZZER_ARMED']);
    expect(s.state).toMatchObject({ question: 2, phase: 'armed' });
  });

  it('reading timer: presses while the question is read are false starts; the buzzers go live after it', () => {
    const s = new Session(setup({ readingTimerMs: 5000 }));
    expect(s.arm(ARM)).toEqual([expect.objectContaining({ type: 'READING_STARTED', readingMs: 5000 })]);
    expect(s.state.timers.liveAtUs).toBe(ARM + 5e6);
    expect(s.do(devicePress('ana', ARM + 4.9e6))).toEqual([expect.objectContaining({ type: 'FALSE_START', earlyByUs: 100_000 })]);
    expect(s.do({ type: 'live', at: at(ARM + 5e6) })).toEqual([expect.objectContaining({ type: 'BUZZER_ARMED', by: 'reading-timer' })]);
    s.do(devicePress('ben', ARM + 5.4e6));
    expect(s.decide()).toContainEqual(expect.objectContaining({ type: 'WINNER', contestant: 'ben', reactionUs: 400_000 }));
  });

  it('arming twice is refused and changes nothing; reset clears the result and lockouts', () => {
    const s = new Session();
    s.arm(ARM);
    expect(s.try({ type: 'arm', at: at(ARM + 1), by: 'x' })).toMatchObject({ ok: false, code: 'ALREADY_ARMED' });
    s.do(devicePress('ana', ARM + 300_000));
    s.decide();
    s.do({ type: 'reset', at: at(ARM + 1e6), by: 'host' });
    expect(buzzerView(s.state)).toMatchObject({ phase: 'idle', winners: [], ranking: [], lockouts: [] });
  });
});

describe('replay', () => {
  it('rebuilds every press with its rank, delay, reaction time and tie group from the actions', () => {
    const s = new Session();
    const actions = [
      devicePress('cy', ARM - 50_000),
      { type: 'arm' as const, at: at(ARM), by: 'host' },
      devicePress('ana', ARM + 300_000, { u: 150 }),
      devicePress('ben', ARM + 300_100, { u: 150 }),
      devicePress('cy', ARM + 320_000),
      { type: 'decide' as const, at: at(ARM + 340_000) },
      { type: 'reset' as const, at: at(ARM + 1e6), by: 'host' },
    ];
    const replay = replaySession(s.state, actions);
    expect(replay.refused).toEqual([]);
    const table = replay.rows.map((r) => [
      r.question, r.contestant, r.outcome, r.rank, r.tieGroup, r.delayUs, r.reactionUs, r.falseStart,
    ]);
    expect(table).toEqual([
      [0, 'cy', 'false-start', null, null, null, null, true],
      [1, 'ana', 'ranked', 1, 0, 0, 300_000, false],
      [1, 'ben', 'ranked', 1, 0, 0, 300_100, false],
      [1, 'cy', 'ranked', 3, null, 20_000, 320_000, false],
    ]);
  });
});
