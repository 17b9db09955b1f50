/**
 * A pending Zip-Zap tie as the referee reads it (docs/rules-engine.md, "the figures"): who landed how far
 * apart, how precisely each landing is known and by what — "ana and ben landed 1.2 ms apart, each ±4.0 ms (tag
 * windows): who was first?". Pure (no DOM), so that a unit test reads the same sentence the pages show.
 */
import type { ZipZapPublicView } from './types.ts';

type PublicTie = NonNullable<ZipZapPublicView['tie']>;
/** A contender's landing (its card, public since both lie on the pile, is not part of the figures). */
type Contender = Omit<PublicTie['contenders'][number], 'card'>;
type Tie = Omit<PublicTie, 'contenders'> & { readonly contenders: readonly Contender[] };

const SOURCE: Readonly<Record<string, readonly [string, string]>> = {
  tag: ['tag window', 'tag windows'],
  slap: ['slap sensor', 'slap sensors'],
  button: ['ZAP button', 'ZAP buttons'],
};

/** A span of ms as people read it: below 1 ms in µs, else ms with one decimal. */
export function span(ms: number): string {
  return Math.abs(ms) < 1 ? `${Math.round(ms * 1000)} µs` : `${ms.toFixed(1)} ms`;
}

/** Half the width of a contender's landing interval (ms); null for an exact play (a referee's entry). */
function halfWidth(c: Contender): number | null {
  return c.atEarliest === undefined || c.atLatest === undefined ? null : (c.atLatest - c.atEarliest) / 2;
}

function names(players: readonly string[]): string {
  return players.length <= 2 ? players.join(' and ') : `${players.slice(0, -1).join(', ')} and ${players.at(-1) ?? ''}`;
}

/**
 * How precisely each landing is known: "each ±4.0 ms (tag windows)" when they are dated alike (one source,
 * widths within 10 % of each other: the stations' clock bounds differ a little; the widest is shown), else one
 * by one.
 */
function precision(contenders: readonly Contender[], nameOf: (id: string) => string): string {
  const one = (c: Contender): string => {
    const h = halfWidth(c);
    if (h === null) return 'exact';
    const source = c.timedBy === undefined ? undefined : SOURCE[c.timedBy]?.[0];
    return `±${span(h)}${source === undefined ? '' : ` (${source})`}`;
  };
  const first = contenders[0];
  const widths = contenders.map(halfWidth);
  const known = widths.filter((w): w is number => w !== null);
  const alike = first !== undefined && contenders.length > 1 && known.length === contenders.length
    && contenders.every((c) => c.timedBy === first.timedBy) && Math.max(...known) <= 1.1 * Math.min(...known);
  if (alike) {
    const plural = first.timedBy === undefined ? undefined : SOURCE[first.timedBy]?.[1];
    return `each ±${span(Math.max(...known))}${plural === undefined ? '' : ` (${plural})`}`;
  }
  return contenders.map((c) => `${nameOf(c.player)} ${one(c)}`).join(', ');
}

/** The sentence for a pending tie, players by name (`nameOf`, the seats' configured names; ids without it). */
export function tieSentence(tie: Tie, nameOf: (id: string) => string = (id) => id): string {
  const margin = tie.tieWindowMs > 0 ? `, within the ${span(tie.tieWindowMs)} tie window` : '';
  const who = names(tie.contenders.map((c) => nameOf(c.player)));
  return `${who} landed ${span(tie.separationMs)} apart, ${precision(tie.contenders, nameOf)}${margin}: who was first?`;
}
