/**
 * The RFID reader as firmware 0.4.0 (protocol 2) runs it (firmware/src/station.cpp `poll_rfid`,
 * tag_presence.cpp; hardware/protocol.md *Several tags*):
 *
 * - The field stays on and every known tag is HALTed, so a poll (REQA) is answered only by tags that entered
 *   the field and have powered up. One is read per poll — of several answering, the one the anticollision
 *   picks (the `1` branch at the first colliding UID bit, `anticollisionFirst`) — and halted. So reads come in
 *   **answer order**: a card that lands after a slowly waking one but powers up first is read first. A `TAG+`
 *   window reaches back to the last poll nobody answered.
 * - Known tags are checked round robin, a round at most every `presenceRoundMs`; a missed check is repeated in
 *   the next step. Two misses in a row make a tag a **suspect**: the field is reset (off `fieldOffUs`, on
 *   `guardUs` before the first poll) and every tag in the field, known or new, is read again — a **full
 *   inventory**, over once `inventoryEmptyPolls` polls in a row found nobody. A suspect it read stays (no event);
 *   one it did not read has left: `TAG-` stamped with the inventory's end, its window back to the last moment it
 *   was known present (its last answered check or read). No presence checks run during an inventory; a new tag
 *   read in it gets a window back to the last empty poll before the reset (spanning the inventory: honest).
 * - The boot is such an inventory too (the firmware starts with a field reset), its windows back to the boot.
 *
 * Polls lie on a grid (a step every `pollUs`) from the last field-on; the model schedules only the moments
 * something changes, not every poll, so a simulated table costs no timer per millisecond. A read is one step
 * (the real firmware's read of a new 7-byte card takes 5.3–8.7 ms; the step is the measured window instead).
 */

/** What the reader reports. */
export interface ReaderChange {
  readonly arrived: boolean;
  readonly uid: string;
  /** The station's `micros()` at the poll that read it (TAG+) or at the inventory's end (TAG-). */
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
  /** How long a tag that entered the field (or whose field came back on) takes before it answers a poll, µs. */
  readonly powerUpUs: number;
  /** Field on before the first poll after a reset, µs (ISO 14443-3; the firmware's `RFID_FIELD_GUARD_US`, 6 ms). */
  readonly guardUs: number;
  /** Field off in a reset, µs (every tag loses power; the firmware's `RFID_FIELD_OFF_US`, 6 ms). Default 6000. */
  readonly fieldOffUs?: number;
  /** Empty polls in a row that end a full inventory (the firmware's `RFID_INVENTORY_EMPTY_POLLS`). Default 3. */
  readonly inventoryEmptyPolls?: number;
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
/** The firmware's `TAG_MISSES_TO_LEAVE`: checks missed in a row that make a suspect. */
const MISSES_TO_SUSPECT = 2;

function elapsed(later: number, earlier: number): number {
  return (((later - earlier) % U32_RANGE) + U32_RANGE) % U32_RANGE;
}

/** A UID's bytes as the anticollision sends them, cascade level by level (CT 0x88 before the upper levels' 3 bytes). */
function cascadeBytes(uid: string): number[] {
  const bytes = (uid.match(/../g) ?? []).map((h) => parseInt(h, 16));
  if (bytes.length <= 4) return bytes;
  if (bytes.length <= 7) return [0x88, ...bytes.slice(0, 3), ...bytes.slice(3)];
  return [0x88, ...bytes.slice(0, 3), 0x88, ...bytes.slice(3, 6), ...bytes.slice(6)];
}

/**
 * Of two tags answering one poll, whether `a` is read first: the firmware resolves a collision by taking the
 * `1` branch (firmware/src/mfrc522.cpp `select_level`), and bits go on the air least significant first.
 */
export function anticollisionFirst(a: string, b: string): boolean {
  const x = cascadeBytes(a);
  const y = cascadeBytes(b);
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    const diff = (x[i] as number) ^ (y[i] as number);
    if (diff !== 0) return ((x[i] as number) & diff & -diff) !== 0;
  }
  return a < b;
}

/** A tag in the field the reader has not read yet. */
interface Waking {
  readonly enteredUs: number;
  readonly powerUpUs: number;
}

/** A tag the reader tracks. */
interface Known {
  readonly powerUpUs: number;
  /** When it was last known present (host µs): its read, or the last presence check it answered. */
  lastSeenUs: number;
  /** A presence check is pending for it (it left the field). */
  checking: boolean;
  suspect: boolean;
}

interface Inventory {
  /** The first poll after the field came back on. */
  readonly firstPollUs: number;
  /** Known tags read again in it. */
  readonly reread: Set<string>;
  empties: number;
}

export class FastPollReader {
  private readonly known = new Map<string, Known>();
  private readonly waking = new Map<string, Waking>();
  /** When the field last came on (host µs): every tag in it powers up from then at the latest. */
  private fieldOnUs: number;
  /** The poll grid's origin: the first poll after the field came on. */
  private gridUs: number;
  /** The first poll not taken by a read yet (host µs). */
  private nextFreePollUs: number;
  /** The last poll nobody answered (host µs): TAG+ windows start there. */
  private lastEmptyUs: number;
  private inventory: Inventory | undefined;
  /** Presence checks that fell into an inventory: run once it is over. */
  private afterInventory: (() => void)[] = [];
  /** The step scheduled (host µs; Infinity: none), and its token (a newer schedule makes older ones stale). */
  private scheduledUs = Infinity;
  private token = 0;

  constructor(private readonly timing: FastPollTiming, private readonly deps: ReaderDeps, bootUs: number) {
    this.lastEmptyUs = bootUs; // "since boot": the first windows reach back to power-on
    // The firmware starts with a field reset and a full inventory.
    this.fieldOnUs = bootUs + this.fieldOffUs;
    this.gridUs = this.fieldOnUs + timing.guardUs;
    this.nextFreePollUs = this.gridUs;
    this.inventory = { firstPollUs: this.gridUs, reread: new Set(), empties: 0 };
    this.schedule();
  }

  private get fieldOffUs(): number {
    return this.timing.fieldOffUs ?? 6000;
  }

  /** The first poll at or after `hostUs`. */
  private pollAt(hostUs: number): number {
    if (hostUs <= this.gridUs) return this.gridUs;
    return this.gridUs + Math.ceil((hostUs - this.gridUs) / this.timing.pollUs) * this.timing.pollUs;
  }

  /** When a tag entered at `enteredUs` with this power-up answers a poll (it powers up again after a reset). */
  private answersAt(enteredUs: number, powerUpUs: number): number {
    return Math.max(enteredUs, this.fieldOnUs) + powerUpUs;
  }

  /** A tag entered the field at `hostUs` (default power-up: the reader's `powerUpUs`): read once it answers. */
  entered(uid: string, hostUs: number, powerUpUs = this.timing.powerUpUs): void {
    if (this.known.has(uid) || this.waking.has(uid)) return; // a known tag laid back: still there
    this.waking.set(uid, { enteredUs: hostUs, powerUpUs });
    this.schedule();
  }

  /** The chip answers again: the firmware resets the field and inventories it; tags gone meanwhile are checked. */
  resync(field: readonly string[], hostUs: number): void {
    for (const uid of field) this.entered(uid, hostUs);
    for (const uid of this.known.keys()) if (!field.includes(uid)) this.left(uid, hostUs);
    if (this.inventory === undefined) this.startInventory(hostUs);
    this.schedule();
  }

  /** A tag left the field at `hostUs`: its presence checks miss, and an inventory decides. */
  left(uid: string, hostUs: number): void {
    const tag = this.known.get(uid);
    if (tag === undefined || tag.checking) return;
    tag.checking = true;
    // The last check it answered: the round grid's last point before it left (never after it: honest).
    const roundUs = this.roundUs();
    const lastCheckUs = this.gridUs + Math.floor((hostUs - this.gridUs) / roundUs) * roundUs;
    if (lastCheckUs < hostUs) tag.lastSeenUs = Math.max(tag.lastSeenUs, lastCheckUs);
    this.checkFrom(uid, hostUs);
  }

  /** A round checks every known tag once, a step each, and begins at most every presenceRoundMs. */
  private roundUs(): number {
    return Math.max(this.timing.presenceRoundMs * 1000, this.known.size * this.timing.pollUs);
  }

  /** The tag's next presence check at or after `fromUs`, and the repeat in the next step. */
  private checkFrom(uid: string, fromUs: number): void {
    const roundUs = this.roundUs();
    const checkUs = this.gridUs + Math.ceil((fromUs - this.gridUs) / roundUs) * roundUs;
    let misses = 0;
    const check = (): void => {
      const tag = this.known.get(uid);
      if (tag === undefined) return;
      if (this.inventory !== undefined) { // no checks during an inventory: it decides
        this.afterInventory.push(() => {
          this.checkFrom(uid, this.deps.nowUs());
        });
        return;
      }
      if (this.deps.inField(uid) || this.deps.faulted()) {
        tag.checking = false; // it answered (laid back), or presence is unknown: nothing leaves
        return;
      }
      if (++misses < MISSES_TO_SUSPECT) {
        this.deps.after(this.timing.pollUs / 1000, check); // repeated in the next step, out of turn
        return;
      }
      tag.suspect = true;
      this.startInventory(this.deps.nowUs() + this.timing.pollUs); // the next step resets the field
    };
    this.deps.after(Math.max(0, checkUs - this.deps.nowUs()) / 1000, check);
  }

  /** A field reset at `resetUs`, then a full inventory. */
  private startInventory(resetUs: number): void {
    if (this.inventory !== undefined) return;
    this.fieldOnUs = resetUs + this.fieldOffUs;
    this.gridUs = this.fieldOnUs + this.timing.guardUs;
    this.nextFreePollUs = Math.max(this.nextFreePollUs, this.gridUs);
    this.inventory = { firstPollUs: this.gridUs, reread: new Set(), empties: 0 };
    this.schedule();
  }

  /** When the next step that can change something polls (undefined: nothing to do until a tag comes). */
  private nextStepUs(): number | undefined {
    if (this.inventory !== undefined) return Math.max(this.nextFreePollUs, this.inventory.firstPollUs);
    let first = Infinity;
    for (const w of this.waking.values()) first = Math.min(first, this.answersAt(w.enteredUs, w.powerUpUs));
    return first === Infinity ? undefined : Math.max(this.nextFreePollUs, this.pollAt(first));
  }

  private schedule(): void {
    const at = this.nextStepUs();
    if (at === undefined || at >= this.scheduledUs) return;
    this.scheduledUs = at;
    const token = ++this.token;
    this.deps.after(Math.max(0, at - this.deps.nowUs()) / 1000, () => {
      if (token !== this.token) return;
      this.scheduledUs = Infinity;
      this.step(at);
    });
  }

  /** The tags that answer the poll at `p`: new ones powered up, and in an inventory the known ones not read again yet. */
  private answering(p: number): string[] {
    const out: string[] = [];
    for (const [uid, w] of this.waking) {
      if (!this.deps.inField(uid)) this.waking.delete(uid); // gone before it was read: it never answers
      else if (this.answersAt(w.enteredUs, w.powerUpUs) <= p) out.push(uid);
    }
    const inv = this.inventory;
    if (inv !== undefined) {
      for (const [uid, tag] of this.known) {
        if (!inv.reread.has(uid) && this.deps.inField(uid) && this.fieldOnUs + tag.powerUpUs <= p) out.push(uid);
      }
    }
    return out;
  }

  /** One poll at host time `p`. */
  private step(p: number): void {
    if (this.deps.faulted()) return; // read again once the chip answers (resync)
    const inv = this.inventory;
    // The polls since the last read that nobody answered (outside an inventory a step is taken only when a tag
    // answers, so the poll before it was empty if no read took it).
    if (inv === undefined && p - this.timing.pollUs >= this.nextFreePollUs) this.lastEmptyUs = p - this.timing.pollUs;
    this.nextFreePollUs = p + this.timing.pollUs;
    const answering = this.answering(p);
    if (answering.length === 0) {
      this.lastEmptyUs = p;
      if (inv !== undefined && ++inv.empties >= (this.timing.inventoryEmptyPolls ?? 3)) this.inventoryDone(p);
      this.schedule();
      return;
    }
    const uid = answering.reduce((a, b) => (anticollisionFirst(a, b) ? a : b));
    if (inv !== undefined) inv.empties = 0;
    const tag = this.known.get(uid);
    if (tag !== undefined) { // a known tag read again in the inventory: still there
      inv?.reread.add(uid);
      tag.lastSeenUs = p;
    } else {
      const w = this.waking.get(uid) as Waking;
      this.waking.delete(uid);
      if (this.known.size < this.timing.capacity) {
        this.known.set(uid, { powerUpUs: w.powerUpUs, lastSeenUs: p, checking: false, suspect: false });
        inv?.reread.add(uid);
        const tUs = this.deps.microsAt(p);
        this.deps.report({ arrived: true, uid, tUs, windowUs: elapsed(tUs, this.deps.microsAt(this.lastEmptyUs)) });
      }
    }
    this.schedule();
  }

  /** The inventory is complete at `p`: suspects it did not read have left. */
  private inventoryDone(p: number): void {
    const inv = this.inventory as Inventory;
    this.inventory = undefined;
    const tUs = this.deps.microsAt(p);
    for (const [uid, tag] of [...this.known]) {
      if (!tag.suspect) continue;
      if (inv.reread.has(uid)) {
        tag.suspect = false;
        tag.checking = false;
        continue;
      }
      this.known.delete(uid);
      this.deps.report({ arrived: false, uid, tUs, windowUs: elapsed(tUs, this.deps.microsAt(tag.lastSeenUs)) });
    }
    const deferred = this.afterInventory;
    this.afterInventory = [];
    for (const fn of deferred) fn();
  }
}
