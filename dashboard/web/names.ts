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

/** "Ada (red)" when the name differs from the id, else the id. */
export function nameWithId(nameOf: NameOf, id: string): string {
  const name = nameOf(id);
  return name === id ? id : `${name} (${id})`;
}
