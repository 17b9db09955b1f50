/**
 * The firmware's tag presence logic (firmware/src/tag_presence.cpp), at the level of whole polls: a tag arrives
 * on the first poll that reads it (stamped with that poll) and leaves after two polls in a row missed it
 * (stamped with the first miss: it was already gone then). A different tag read without two misses in
 * between is a leave and an arrival at the same poll.
 *
 * Protocol 2 windows (hardware/protocol.md): a `TAG+` says since when the tag may have been there — the last
 * poll before it, which did not read it (the first poll of a boot: the boot itself) — and a `TAG-` since
 * when it may have been gone — the last poll that read it. The tag's power-up comes on top of a `TAG+`
 * window on the host's side (it may have lain there, waking, at the last poll).
 */

/** Polls in a row without the tag before it counts as gone. */
export const TAG_MISSES_TO_LEAVE = 2;

const U32_RANGE = 2 ** 32;

/** `later − earlier` on the 32-bit `micros()` circle (stamps wrap every ~71.6 min). */
function elapsedUs(later: number, earlier: number): number {
  return (((later - earlier) % U32_RANGE) + U32_RANGE) % U32_RANGE;
}

export interface TagChange {
  readonly arrived: boolean;
  readonly uid: string;
  /** The poll it is stamped with (device µs). */
  readonly tUs: number;
  /** How far back it may have happened (µs): `TAG+` since the poll before, `TAG-` since the last read. */
  readonly windowUs: number;
}

interface Present {
  misses: number;
  firstMissUs: number;
  lastSeenUs: number;
}

/**
 * Every tag in the field, as firmware 0.2.0+ inventories it (one anticollision pass per tag per cycle): each
 * UID arrives on the first cycle that reads it and leaves after two cycles in a row missed it, stamped with the
 * first miss. Up to `capacity` tags are tracked (16 on a seat, 32 on a pile station, as in the firmware).
 */
export class TagPresence {
  private readonly present = new Map<string, Present>();
  /** Tags read while every slot was taken, with the poll before their first read (their window's start). */
  private readonly waiting = new Map<string, number>();
  private lastPollUs: number;

  /** `sinceUs`: the boot's start in device µs (a tag on the first poll may have been there since then). */
  constructor(private readonly capacity = 16, sinceUs = 0) {
    this.lastPollUs = sinceUs;
  }

  /** One inventory cycle's result: every UID read. Returns the changes to report, leaves first. */
  update(uids: readonly string[], nowUs: number): TagChange[] {
    const read = new Set(uids);
    const changes: TagChange[] = [];
    for (const [uid, entry] of this.present) {
      if (read.has(uid)) {
        entry.misses = 0;
        entry.lastSeenUs = nowUs;
        continue;
      }
      if (entry.misses === 0) entry.firstMissUs = nowUs;
      entry.misses++;
      if (entry.misses >= TAG_MISSES_TO_LEAVE) {
        this.present.delete(uid);
        changes.push({ arrived: false, uid, tUs: entry.firstMissUs, windowUs: elapsedUs(entry.firstMissUs, entry.lastSeenUs) });
      }
    }
    for (const uid of this.waiting.keys()) if (!read.has(uid)) this.waiting.delete(uid);
    for (const uid of [...read].sort()) {
      if (this.present.has(uid)) continue;
      const since = this.waiting.get(uid) ?? this.lastPollUs;
      if (this.present.size >= this.capacity) {
        this.waiting.set(uid, since); // reported once a slot frees up, with the window since it was first read
        continue;
      }
      this.waiting.delete(uid);
      this.present.set(uid, { misses: 0, firstMissUs: 0, lastSeenUs: nowUs });
      changes.push({ arrived: true, uid, tUs: nowUs, windowUs: elapsedUs(nowUs, since) });
    }
    this.lastPollUs = nowUs;
    return changes;
  }
}
