/**
 * The RFID reader as firmware 0.3.0 (protocol 2) runs it (firmware/src/station.cpp, `poll_rfid`): the field
 * stays on and every known tag is HALTed, so each step's poll (a REQA) is answered only by a tag that has just
 * entered the field and finished powering up; it is read and halted at once. One tag per poll: two cards that
 * landed together are read at two consecutive polls, and both windows reach back to the last poll nobody
 * answered. Known tags are checked for presence round robin, a round at most every `presenceRoundMs`; a tag
 * that misses two checks in a row has left, stamped with the first missed check, its window back to the last
 * check it answered.
 *
 * Polls and checks lie on fixed grids from the boot (a step every `pollUs`): the model schedules only the
 * moments something changes, not every poll, so a simulated table costs no timer per millisecond.
 */

/** What the reader reports. */
export interface ReaderChange {
  readonly arrived: boolean;
  readonly uid: string;
  /** The station's `micros()` at the poll (TAG+) or first missed check (TAG-). */
  readonly tUs: number;
  /** How far back it may have happened, device µs. */
  readonly windowUs: number;
}

/** The firmware's RFID timing. */
export interface FastPollTiming {
  /** Time from one poll to the next, µs: one step (a poll, and a presence check when tags rest on the reader). */
  readonly pollUs: number;
  /** The least time between two rounds of presence checks, ms (the firmware's `RFID_CHECK_PERIOD_US`). */
  readonly presenceRoundMs: number;
  /** How long a tag that entered the field takes before it answers a poll, µs. */
  readonly powerUpUs: number;
  /** Field on before the first poll after boot, µs (ISO 14443-3 guard time; the firmware's 6 ms). */
  readonly guardUs: number;
  /** Tags it tracks (16 on a seat, 32 on a pile station); more are not reported. */
  readonly capacity: number;
}

/** What the reader needs from its station. */
export interface ReaderDeps {
  readonly nowUs: () => number;
  /** The station's `micros()` at controller time `hostUs`. */
  readonly microsAt: (hostUs: number) => number;
  /** Runs `fn` `ms` from now on the firmware's timers (cleared by a reset). */
  readonly after: (ms: number, fn: () => void) => void;
  /** Whether the tag is in the field now. */
  readonly inField: (uid: string) => boolean;
  /** The reader chip does not answer: nothing is read, nothing leaves (presence unknown; see `resync`). */
  readonly faulted: () => boolean;
  readonly report: (change: ReaderChange) => void;
}

const U32_RANGE = 2 ** 32;

function elapsed(later: number, earlier: number): number {
  return (((later - earlier) % U32_RANGE) + U32_RANGE) % U32_RANGE;
}

export class FastPollReader {
  private readonly known = new Set<string>();
  /** Tags whose read is scheduled. */
  private readonly reading = new Set<string>();
  private readonly leaving = new Set<string>();
  /** The first poll not taken by a scheduled read yet (controller µs). */
  private nextFreePollUs = 0;
  /** The last poll nobody answered before the reads in progress (controller µs). */
  private lastEmptyUs = 0;

  constructor(private readonly timing: FastPollTiming, private readonly deps: ReaderDeps, private readonly bootUs: number) {
    this.lastEmptyUs = bootUs; // "since boot": the first windows reach back to power-on
    this.nextFreePollUs = bootUs + timing.guardUs;
  }

  /** The first poll at or after `hostUs`. */
  private pollAt(hostUs: number): number {
    const first = this.bootUs + this.timing.guardUs;
    if (hostUs <= first) return first;
    return first + Math.ceil((hostUs - first) / this.timing.pollUs) * this.timing.pollUs;
  }

  /**
   * A tag entered the field at `hostUs` (or lay there at boot): it is read at the first free poll once it
   * answers, `powerUpUs` later (default: the reader's `powerUpUs`).
   */
  entered(uid: string, hostUs: number, powerUpUs = this.timing.powerUpUs): void {
    if (this.known.has(uid) || this.reading.has(uid)) return;
    const answers = this.pollAt(hostUs + powerUpUs);
    // One read per poll; a poll before the burst's first read that nobody answered starts every window of it.
    if (answers > this.nextFreePollUs) this.lastEmptyUs = answers - this.timing.pollUs;
    const readUs = Math.max(answers, this.nextFreePollUs);
    this.nextFreePollUs = readUs + this.timing.pollUs;
    const since = this.lastEmptyUs;
    this.reading.add(uid);
    this.deps.after((readUs - this.deps.nowUs()) / 1000, () => {
      this.reading.delete(uid);
      if (this.deps.faulted()) return; // read again once the chip answers (resync)
      if (!this.deps.inField(uid) || this.known.size >= this.timing.capacity) return; // gone again before it answered
      this.known.add(uid);
      const tUs = this.deps.microsAt(readUs);
      this.deps.report({ arrived: true, uid, tUs, windowUs: elapsed(tUs, this.deps.microsAt(since)) });
    });
  }

  /** The chip answers again: tags that came or went while it did not are found now. */
  resync(field: readonly string[], hostUs: number): void {
    for (const uid of [...this.known]) if (!field.includes(uid)) this.left(uid, hostUs);
    for (const uid of field) this.entered(uid, hostUs);
  }

  /** A tag left the field at `hostUs`: two missed presence checks make its departure. */
  left(uid: string, hostUs: number): void {
    if (!this.known.has(uid) || this.leaving.has(uid)) return;
    // A round checks every known tag once, a step each, and begins at most every presenceRoundMs.
    const roundUs = Math.max(this.timing.presenceRoundMs * 1000, this.known.size * this.timing.pollUs);
    const first = this.bootUs + this.timing.guardUs;
    const missUs = first + Math.ceil((hostUs - first) / roundUs) * roundUs;
    this.leaving.add(uid);
    this.deps.after((missUs - this.deps.nowUs()) / 1000, () => {
      if (this.deps.inField(uid) || this.deps.faulted()) {
        this.leaving.delete(uid); // back before the check: it answered
        return;
      }
      this.deps.after(roundUs / 1000, () => {
        this.leaving.delete(uid);
        if (this.deps.inField(uid) || this.deps.faulted()) return; // answered the second check: still present
        this.known.delete(uid);
        const tUs = this.deps.microsAt(missUs);
        this.deps.report({ arrived: false, uid, tUs, windowUs: elapsed(tUs, this.deps.microsAt(missUs - roundUs)) });
      });
    });
  }
}
