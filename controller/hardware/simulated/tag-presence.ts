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

export class TagPresence {
  private present: string | undefined;
  private misses = 0;
  private firstMissUs = 0;

  /** One poll's result: the UID read, or undefined when no tag answered. Returns the changes to report. */
  update(uid: string | undefined, nowUs: number): TagChange[] {
    if (uid !== undefined) {
      this.misses = 0;
      if (this.present === uid) return [];
      const changes: TagChange[] = [];
      if (this.present !== undefined) changes.push({ arrived: false, uid: this.present, tUs: nowUs });
      this.present = uid;
      changes.push({ arrived: true, uid, tUs: nowUs });
      return changes;
    }
    if (this.present === undefined) return [];
    if (this.misses === 0) this.firstMissUs = nowUs;
    this.misses++;
    if (this.misses < TAG_MISSES_TO_LEAVE) return [];
    const left = { arrived: false, uid: this.present, tUs: this.firstMissUs };
    this.present = undefined;
    this.misses = 0;
    return [left];
  }
}
