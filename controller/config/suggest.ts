/** "Did you mean …?" for unknown keys and enum values: the closest known word, if it is close enough. */

/** Edit distance (insert, delete, substitute, and swap of two neighbours: the commonest typo). */
export function editDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
  const row0 = d[0];
  if (row0) for (let j = 0; j <= b.length; j++) row0[j] = j;
  const at = (i: number, j: number): number => d[i]?.[j] ?? Infinity;
  for (let i = 1; i <= a.length; i++) {
    const row = d[i];
    if (!row) continue;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(at(i - 1, j) + 1, at(i, j - 1) + 1, at(i - 1, j - 1) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, at(i - 2, j - 2) + 1);
      row[j] = best;
    }
  }
  return at(a.length, b.length);
}

const normalise = (s: string): string => s.toLowerCase().replace(/[-_\s]/g, '');

/**
 * The known word closest to `word`, or undefined when none is plausible. Case, `-` and `_` are ignored first
 * (`base_topic` → `baseTopic`); otherwise up to one edit per three letters is allowed (at least one).
 */
export function suggest(word: string, known: Iterable<string>): string | undefined {
  const candidates = [...known];
  const exact = candidates.find((k) => normalise(k) === normalise(word));
  if (exact !== undefined) return exact;
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const k of candidates) {
    const dist = editDistance(normalise(word), normalise(k));
    if (dist < bestDistance) {
      best = k;
      bestDistance = dist;
    }
  }
  return bestDistance <= Math.max(1, Math.floor(word.length / 3)) ? best : undefined;
}

/** `; did you mean "x"?` or nothing. */
export function didYouMean(word: string, known: Iterable<string>): string {
  const s = suggest(word, known);
  return s === undefined ? '' : `; did you mean "${s}"?`;
}
