/**
 * Buzzer (lockout) mode: the types of the pure logic. State + action → new state + events, like the rules
 * engines; no clock: every time arrives inside an action (the press's stamps, the runtime's `at`).
 *
 * Vocabulary:
 * - a **contestant** is one buzzer (a configured seat: name, colour, one station or hub button);
 * - an **entrant** is what competes and scores: the contestant's team when it has one, else the contestant;
 * - a **question** runs from an `arm` (after a reset, a correct answer or at the start) until it is closed;
 *   a wrong answer may re-arm the same question (a new **round**).
 *
 * This file imports only the kernel (pure), so the transport (and the dashboard through it) can take the view types.
 */
import type { EventTime } from '../kernel/event-time.ts';
import type { Result } from '../kernel/result.ts';

/**
 * How a contestant's press was stamped: the kernel's `EventTime`, every field kept. Its `uncertaintyUs` is finite
 * (an unsynced press carries `UNSYNCED_UNCERTAINTY_US`); the button's own interval (`beforeUs`: the interrupt
 * latency; host-stamped presses 0 and 0, their latency being all in `uncertaintyUs`) widens it in the ranking
 * (docs/timing.md §3).
 */
export type PressTime = EventTime;

/** When the runtime applied an action: its monotonic µs and the wall clock (for people-facing times). */
export interface ActionTime {
  readonly hostUs: number;
  readonly wallMs: number;
}

export interface ContestantSetup {
  readonly id: string;
  readonly name: string;
  readonly colour: string | null;
  /** The station (seat station id or hub button id) whose button is this contestant's buzzer. */
  readonly station: string;
  readonly team: string | null;
}

export interface TeamSetup {
  readonly id: string;
  readonly name: string;
  readonly members: readonly string[];
}

/** What happens after a wrong answer: the same question is armed again, or waits for the host. */
export type AfterWrong = 'rearm' | 'stay';

/** Everything the logic needs to know; built once from the table's configuration. */
export interface BuzzerSetup {
  readonly contestants: readonly ContestantSetup[];
  readonly teams: readonly TeamSetup[];
  /** A press before the buzzers are live locks that contestant out this long (µs after the press). */
  readonly penaltyMs: number;
  /** 'until-reset': the result stays until the host resets or marks; 'auto-reset': re-armed `autoResetMs` after it. */
  readonly lockout: 'until-reset' | 'auto-reset';
  readonly autoResetMs: number | null;
  /** An entrant that buzzed in a question cannot buzz again in that question (after a wrong answer's re-arm). */
  readonly oneBuzzPerQuestion: boolean;
  /** A team's other buzzers are locked once one member buzzed: only the team's first press ranks. */
  readonly teamLockout: boolean;
  /** Buzzers go live this long after `arm` (the question is read meanwhile; a press then is a false start). */
  readonly readingTimerMs: number | null;
  readonly points: { readonly correct: number; readonly wrong: number };
  readonly afterWrong: AfterWrong;
  /**
   * How long the runtime waits after the first press arrived before declaring a winner, so that a press that
   * was earlier but arrives later (serial latency, debounce, a hub's report backlog) is not beaten (ms).
   * Twice the first press's uncertainty is added, capped by `maxExtraWindowMs`, so a press that might still
   * tie with it is heard as well.
   */
  readonly arbitrationWindowMs: number;
  readonly maxExtraWindowMs: number;
  /** Half width of a device stamp (µs) for comparisons on one station (4 µs: `micros()` on a 16 MHz AVR). */
  readonly deviceResolutionUs: number;
}

/** The actions of buzzer mode. Each carries the time it was applied (`at`). */
export type BuzzerAction =
  | { readonly type: 'arm'; readonly at: ActionTime; readonly by: string }
  /** The reading timer ran out: the buzzers go live. Issued by the runtime at `timers.liveAtUs`. */
  | { readonly type: 'live'; readonly at: ActionTime }
  | {
    readonly type: 'press'; readonly at: ActionTime; readonly contestant: string; readonly station: string;
    readonly time: PressTime;
    /** The log row of the sensor event, so a dispute can find the raw line. */
    readonly sensorSeq?: number;
  }
  /** The arbitration window closed: decide the winner. Issued by the runtime at `timers.decideAtUs`. */
  | { readonly type: 'decide'; readonly at: ActionTime }
  | { readonly type: 'reset'; readonly at: ActionTime; readonly by: string }
  /** Issued by the runtime at `timers.autoResetAtUs` in auto-reset mode: reset and arm the next question. */
  | { readonly type: 'auto-reset'; readonly at: ActionTime }
  | { readonly type: 'mark'; readonly at: ActionTime; readonly by: string; readonly correct: boolean; readonly contestant?: string }
  | { readonly type: 'score'; readonly at: ActionTime; readonly by: string; readonly entrant: string; readonly delta: number; readonly reason?: string };

export type BuzzerActionType = BuzzerAction['type'];

export type Phase =
  /** Not armed; presses are false starts. */
  | 'idle'
  /** Armed, the reading timer runs; presses are false starts. */
  | 'reading'
  /** Live: the first press wins. */
  | 'armed'
  /** A press arrived; the arbitration window is open. */
  | 'judging'
  /** Winner (or tie) declared; later presses are ranked behind. */
  | 'decided'
  /** The host marked the answer correct: the result is shown until the next arm; presses are false starts. */
  | 'closed';

export type LockReason = 'false-start' | 'wrong' | 'already-buzzed';

export interface Lockout {
  readonly reason: LockReason;
  /** Controller µs until which the lockout holds; null: until the question ends. */
  readonly untilUs: number | null;
}

/** A press that counts (after the buzzers went live, not locked out). */
export interface AcceptedPress {
  readonly contestant: string;
  readonly entrant: string;
  readonly station: string;
  readonly time: PressTime;
  readonly arrivedUs: number;
  readonly sensorSeq?: number;
}

/** What became of every press in a question: the material of the CSV export and of a dispute. */
export interface PressRecord {
  readonly question: number;
  readonly round: number;
  readonly contestant: string;
  readonly station: string;
  readonly time: PressTime;
  readonly sensorSeq?: number;
  readonly outcome: 'ranked' | 'false-start' | 'locked-out' | 'repeat';
  /** For false starts and lockouts: why. */
  readonly reason?: LockReason | 'team';
  /** µs before the buzzers went live (false starts while armed or reading). */
  readonly earlyByUs?: number;
}

export interface TieInfo {
  readonly members: readonly string[];
  readonly separationUs: number;
  readonly combinedUncertaintyUs: number;
}

export interface Decision {
  readonly winners: readonly string[];
  readonly tie: TieInfo | null;
  readonly atUs: number;
  /** A press that arrived after the decision turned out earlier than (or tied with) the winner. */
  readonly disputed: boolean;
}

export interface Timers {
  readonly liveAtUs: number | null;
  readonly decideAtUs: number | null;
  readonly autoResetAtUs: number | null;
}

export interface MarkRecord {
  readonly contestant: string;
  readonly correct: boolean;
}

export interface BuzzerState {
  readonly setup: BuzzerSetup;
  /** 0 before the first arm. */
  readonly question: number;
  /** Arming count within the question (a wrong answer's re-arm adds one). */
  readonly round: number;
  readonly questionOpen: boolean;
  readonly phase: Phase;
  readonly armedAt: ActionTime | null;
  /** Controller µs from which presses count (arm time, or arm + reading timer). */
  readonly liveAtUs: number | null;
  /** Accepted presses of the current round. */
  readonly presses: readonly AcceptedPress[];
  /** Every press of the current question, with its outcome. */
  readonly records: readonly PressRecord[];
  readonly decision: Decision | null;
  readonly lockouts: Readonly<Record<string, Lockout>>;
  /** Entrants that buzzed (ranked) in this question. */
  readonly buzzed: readonly string[];
  readonly marks: readonly MarkRecord[];
  readonly scores: Readonly<Record<string, number>>;
  /** Reaction times (µs from live to press) of ranked presses, per contestant, the latest `REACTION_SAMPLES`. */
  readonly reactions: Readonly<Record<string, readonly number[]>>;
  readonly timers: Timers;
  /** The latest action's time: converts controller µs to wall-clock ms for the view. */
  readonly anchor: ActionTime;
}

/** Events of buzzer mode (published on `<base>/<table>/events`; docs/mqtt.md has an example of each). */
export type BuzzerEvent =
  | { readonly type: 'READING_STARTED'; readonly question: number; readonly round: number; readonly readingMs: number; readonly liveAtMs: number }
  | { readonly type: 'BUZZER_ARMED'; readonly question: number; readonly round: number; readonly liveAtMs: number; readonly by: string }
  | {
    readonly type: 'BUZZ'; readonly question: number; readonly contestant: string; readonly team: string | null;
    readonly station: string; readonly reactionUs: number; readonly uncertaintyUs: number;
    /** The place once a winner is declared (null while the arbitration window is open). */
    readonly place: number | null; readonly tie: boolean;
    /** µs behind the winner (null while judging, 0 for a winner). */
    readonly delayUs: number | null;
  }
  | {
    readonly type: 'WINNER'; readonly question: number; readonly contestant: string; readonly team: string | null;
    readonly name: string; readonly reactionUs: number; readonly uncertaintyUs: number;
    /** How far ahead of the next press (µs) and the combined uncertainty of the two; null without a second press. */
    readonly marginUs: number | null; readonly marginUncertaintyUs: number | null;
  }
  | {
    readonly type: 'TIE'; readonly question: number; readonly contestants: readonly string[];
    readonly separationUs: number; readonly combinedUncertaintyUs: number;
  }
  | {
    readonly type: 'FALSE_START'; readonly question: number; readonly contestant: string; readonly team: string | null;
    readonly station: string; readonly earlyByUs: number | null; readonly penaltyMs: number; readonly lockedUntilMs: number;
  }
  | {
    readonly type: 'LOCKED_OUT'; readonly question: number; readonly contestant: string;
    readonly reason: LockReason | 'team'; readonly untilMs: number | null;
  }
  | {
    readonly type: 'LATE_EARLIER_PRESS'; readonly question: number; readonly contestant: string; readonly message: string;
  }
  | { readonly type: 'MARKED'; readonly question: number; readonly contestant: string; readonly correct: boolean; readonly by: string }
  | { readonly type: 'SCORED'; readonly entrant: string; readonly delta: number; readonly total: number; readonly reason: string }
  | { readonly type: 'RESET'; readonly question: number; readonly auto: boolean; readonly by: string };

export type BuzzerEventType = BuzzerEvent['type'];

/** Every event type, for documentation checks. */
export const BUZZER_EVENT_TYPES = [
  'READING_STARTED', 'BUZZER_ARMED', 'BUZZ', 'WINNER', 'TIE', 'FALSE_START', 'LOCKED_OUT', 'LATE_EARLIER_PRESS',
  'MARKED', 'SCORED', 'RESET',
] as const;

type SameTypes<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const _eventTypesComplete: SameTypes<(typeof BUZZER_EVENT_TYPES)[number], BuzzerEventType> = true;

/** The outcome of applying an action: a new state and events, or a rejection with a stable code. */
export type BuzzerOutcome = Result<{ readonly state: BuzzerState; readonly events: readonly BuzzerEvent[] }, BuzzerRejection>;

/** Stable rejection codes (docs/buzzer.md). */
export type BuzzerRejection =
  | 'ALREADY_ARMED' | 'NOT_DECIDED' | 'UNKNOWN_CONTESTANT' | 'UNKNOWN_ENTRANT' | 'TIE_NEEDS_CONTESTANT'
  | 'NOT_RANKED' | 'UNSYNCED_PRESS' | 'BAD_ACTION';

/** How many reaction samples per contestant the state keeps for the histogram. */
export const REACTION_SAMPLES = 200;
