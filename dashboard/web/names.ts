/**
 * Players as people know them: the configured seat names (`bridge/tables` seats: Ada, Ben…), with the id the
 * game uses where it differs, so a page says "Ada" and a referee can still match it to `red` in the log.
 */
import type { LiveStore } from './live-client.ts';

export type NameOf = (id: string) => string;

/** The seat's configured name, or the id when the table published none. */
export function namesOf(store: LiveStore, table: string): NameOf {
  const seats = store.bridgeEntry(table)?.seats ?? [];
  return (id) => {
    const name = seats.find((s) => s.id === id)?.name;
    return name === undefined || name === '' ? id : name;
  };
}

/** The players a bot plays (`bridge/tables` seats with `bot: true`): the pages say so beside their names. */
export function botsOf(store: LiveStore, table: string): ReadonlySet<string> {
  return new Set((store.bridgeEntry(table)?.seats ?? []).filter((s) => s.bot === true).map((s) => s.id));
}

/** "Ada (red)" when the name differs from the id, else the id. */
export function nameWithId(nameOf: NameOf, id: string): string {
  const name = nameOf(id);
  return name === id ? id : `${name} (${id})`;
}

/** A station as people know it: "Ada's pad" for a seat's station, "the pile" for the pile station, else its id. */
export function stationNamesOf(store: LiveStore, table: string): NameOf {
  const entry = store.bridgeEntry(table);
  const nameOf = namesOf(store, table);
  return (station) => {
    if (station === entry?.pileStation) return 'the pile';
    const seat = entry?.seats?.find((s) => s.station === station);
    return seat === undefined ? station : `${nameOf(seat.id)}'s pad`;
  };
}

const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * A controller's sentence with the table's station ids and seat ids in it replaced by names ("a second barrel on
 * t2-seat-1" → "a second barrel on Ada's pad"): whole words only, longest first, and only ids of two or more
 * characters that differ from their name, so that ordinary words are left alone.
 */
export function namedText(store: LiveStore, table: string): (text: string) => string {
  const entry = store.bridgeEntry(table);
  const nameOf = namesOf(store, table);
  const stationOf = stationNamesOf(store, table);
  const pairs: (readonly [string, string])[] = [
    ...(entry?.seats ?? []).flatMap((s) => (s.station === undefined ? [] : [[s.station, stationOf(s.station)] as const])),
    ...(entry?.pileStation === undefined ? [] : [[entry.pileStation, 'the pile'] as [string, string]]),
    ...(entry?.seats ?? []).map((s) => [s.id, nameOf(s.id)] as [string, string]),
  ].filter(([id, name]) => id.length >= 2 && id !== name);
  pairs.sort((a, b) => b[0].length - a[0].length);
  if (pairs.length === 0) return (text) => text;
  const byId = new Map(pairs);
  const pattern = new RegExp(`(?<![\\w-])(${pairs.map(([id]) => escape(id)).join('|')})(?![\\w-])`, 'g');
  // "ana's pad (seat-1)" names the pad twice once both are names: "Ada's pad (Ada's pad)" is said once.
  return (text) => text.replace(pattern, (id) => byId.get(id) ?? id).replace(/([A-Za-z][\w']*(?: [\w']+)*) \(\1\)/g, '$1');
}
