/**
 * The firmware's tag presence logic (firmware/src/tag_presence.cpp): a tag arrives on the first poll that
 * reads it (stamped with that poll's start) and leaves after two polls in a row missed it (stamped with the
 * first miss: it was already gone then). A different tag read without two misses in between is a leave
 * and an arrival at the same poll.
 */

/** Polls in a row without the tag before it counts as gone. */
export const TAG_MISSES_TO_LEAVE = 2;

export interface TagChange {
  readonly arrived: boolean;
  readonly uid: string;
  readonly tUs: number;
}

/**
 * Every tag in the field, as firmware 0.2.0 inventories it (one anticollision pass per tag per cycle): each UID
 * arrives on the first cycle that reads it and leaves after two cycles in a row missed it, stamped with the
 * first miss. Up to `capacity` tags are tracked (16 on a seat, 32 on a pile station, as in the firmware).
 */
export class TagPresence {
  private readonly present = new Map<string, { misses: number; firstMissUs: number }>();

  constructor(private readonly capacity = 16) {}

  /** One inventory cycle's result: every UID read. Returns the changes to report, leaves first. */
  update(uids: readonly string[], nowUs: number): TagChange[] {
    const read = new Set(uids);
    const changes: TagChange[] = [];
    for (const [uid, entry] of this.present) {
      if (read.has(uid)) {
        entry.misses = 0;
        continue;
      }
      if (entry.misses === 0) entry.firstMissUs = nowUs;
      entry.misses++;
      if (entry.misses >= TAG_MISSES_TO_LEAVE) {
        this.present.delete(uid);
        changes.push({ arrived: false, uid, tUs: entry.firstMissUs });
      }
    }
    for (const uid of [...read].sort()) {
      if (this.present.has(uid) || this.present.size >= this.capacity) continue;
      this.present.set(uid, { misses: 0, firstMissUs: 0 });
      changes.push({ arrived: true, uid, tUs: nowUs });
    }
    return changes;
  }
}
