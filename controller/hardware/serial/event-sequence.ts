/**
 * Lost events from sequence numbers. A station numbers its events 0, 1, 2, … from every boot (wrapping
 * 2^32 − 1 → 0). Serial lines are never reordered, so the next event must carry the next number; a jump
 * forward means lines were lost (a corrupted line the codec rejected, a full USB buffer, a port that was
 * briefly closed). A jump backward cannot be loss: the station restarted without the host seeing its
 * banner, and counting starts over from the new number.
 */

const SEQ_RANGE = 2 ** 32;

/** The number the event after `seq` must carry. */
export function nextSequence(seq: number): number {
  return (seq + 1) % SEQ_RANGE;
}

/**
 * Events lost between the expected number and the one that arrived: 0 when they match, when nothing is
 * expected yet (the first event seen without a banner), or when the number went backwards.
 */
export function lostBetween(expected: number | undefined, seq: number): number {
  if (expected === undefined) return 0;
  const gap = (((seq - expected) % SEQ_RANGE) + SEQ_RANGE) % SEQ_RANGE;
  return gap < SEQ_RANGE / 2 ? gap : 0;
}
