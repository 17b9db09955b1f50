/**
 * Which login may use an MQTT client id on the embedded broker. MQTT lets a new connection with an id in use
 * throw the old one off, so an id that two logins could use is a way for one to knock the other offline (a
 * viewer taking a referee's id). Every id therefore belongs to exactly one login:
 *
 * - an id that is an account's username or starts with `<username>-` belongs to that account from the start
 *   (the longest matching username wins): the controller's and the dashboard's ids are `<username>-<random>`;
 * - any other id (mqtt.js's default `mqttjs_…`, a tool's fixed id) belongs to the first login that connects
 *   with it, and stays that login's while the broker runs — also while it is disconnected, so a referee whose
 *   network drops for a moment gets its id back, not a viewer that was quicker.
 *
 * A login may always connect again with an id of its own (MQTT then replaces the stale connection, as intended);
 * another login's id is refused. The ids claimed at first use are bounded (`capacity`): past it, the id claimed
 * longest ago that has no connection is forgotten, never one in use.
 */

/** The account an id is reserved to by its name: the longest username U such that the id is U or starts with `U-`. */
export function reservedOwner(clientId: string, usernames: readonly string[]): string | undefined {
  let owner: string | undefined;
  for (const name of usernames) {
    if ((clientId === name || clientId.startsWith(`${name}-`)) && name.length > (owner?.length ?? -1)) owner = name;
  }
  return owner;
}

export type ClaimResult =
  | { readonly ok: true }
  /** `reserved`: the id is in another account's namespace; `claimed`: another login used it first. */
  | { readonly ok: false; readonly owner: string; readonly why: 'reserved' | 'claimed' };

export class ClientIdOwners {
  /** Ids outside every namespace → the login that used them first; Map order is the order of claiming. */
  private readonly claimed = new Map<string, string>();
  /** Open connections per id (a takeover by the same login briefly counts two). */
  private readonly open = new Map<string, number>();

  constructor(private readonly usernames: readonly string[], private readonly capacity = 10_000) {}

  /** Whether `username` may connect with `clientId`; claims a free id for it. Does not count a connection. */
  claim(clientId: string, username: string): ClaimResult {
    const reserved = reservedOwner(clientId, this.usernames);
    if (reserved !== undefined) return reserved === username ? { ok: true } : { ok: false, owner: reserved, why: 'reserved' };
    const owner = this.claimed.get(clientId);
    if (owner !== undefined) return owner === username ? { ok: true } : { ok: false, owner, why: 'claimed' };
    if (this.claimed.size >= this.capacity) this.forgetOldestIdle();
    this.claimed.set(clientId, username);
    return { ok: true };
  }

  /** A connection with this id was accepted. */
  connected(clientId: string): void {
    this.open.set(clientId, (this.open.get(clientId) ?? 0) + 1);
  }

  /** A connection with this id ended. */
  disconnected(clientId: string): void {
    const n = (this.open.get(clientId) ?? 0) - 1;
    if (n > 0) this.open.set(clientId, n);
    else this.open.delete(clientId);
  }

  /** How many ids are remembered as claimed at first use. */
  get size(): number {
    return this.claimed.size;
  }

  private forgetOldestIdle(): void {
    for (const id of this.claimed.keys()) {
      if (!this.open.has(id)) {
        this.claimed.delete(id);
        return;
      }
    }
  }
}
