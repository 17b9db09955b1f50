/**
 * Mosquitto configuration for an external broker that enforces the same roles as the embedded one
 * (`acl.ts`). Used by the contract tests and documented in docs/mqtt.md; an operator can paste its output.
 */
import { CLIENT_PLACEHOLDER, ROLE_RULES, absoluteFilter, type Role } from './acl.ts';
import { BRIDGE_LEVEL, isControllerId, isTableId } from './topics.ts';

/** A broker account. */
export interface BrokerAccount {
  /** Letters, digits, `_ . -` (Mosquitto's ACL file is line- and space-separated). */
  readonly username: string;
  readonly role: Role;
  /**
   * A controller at a venue (several controllers on one broker, docs/venue.md): its id and its tables. Its
   * account may then write only its own bridge topics and its own tables' topics (and read those tables'
   * requests), and read the other controllers' `bridge/+/status` and `bridge/+/tables` (the table id check).
   * Without it a `controller` account may write everything under the base (one controller per broker).
   */
  readonly venue?: { readonly controller: string; readonly tables: readonly string[] };
}

/** The filters (relative to the base) a venue controller's account may read and write. */
export function venueControllerRules(venue: NonNullable<BrokerAccount['venue']>): { readonly readwrite: string[]; readonly read: string[] } {
  if (!isControllerId(venue.controller)) throw new Error(`invalid controller id ${JSON.stringify(venue.controller)}`);
  for (const table of venue.tables) if (!isTableId(table)) throw new Error(`invalid table id ${JSON.stringify(table)}`);
  return {
    readwrite: [`${BRIDGE_LEVEL}/${venue.controller}/#`, ...venue.tables.map((t) => `${t}/#`)],
    read: [`${BRIDGE_LEVEL}/+/status`, `${BRIDGE_LEVEL}/+/tables`],
  };
}

const USERNAME = /^[A-Za-z0-9_.-]{1,64}$/;

/** Whether a username can appear in a Mosquitto ACL file (and in the embedded broker's user list). */
export function isBrokerUsername(name: string): boolean {
  return USERNAME.test(name);
}

const hasClient = (rel: string): boolean => rel.split('/').includes(CLIENT_PLACEHOLDER);

/**
 * The text of a Mosquitto `acl_file` for these accounts under `base`. Mosquitto checks `read` rules on
 * SUBSCRIBE and again on every delivered message, and drops publishes that no `write` rule allows.
 *
 * Mosquitto's `pattern` lines (where `%c` is the client id) apply to every user, whatever `user` line they
 * follow. A read rule with `%c` ("my own responses") is harmless for every role, so it becomes one `pattern
 * read` line for all. A write rule with `%c` ("requests under my own client id") must stay with the roles that
 * have it, so it is written as a plain `topic write` with `+` for the client level: Mosquitto then lets a
 * referee publish under another client's id; the controller keys replays by client and token holder, and the
 * answer goes to that other client's response topic, which the sender cannot read (docs/mqtt.md).
 */
export function mosquittoAcl(base: string, accounts: readonly BrokerAccount[]): string {
  const lines = [`# zaptable ACL for base topic "${base}" (generated; roles in controller/transport/acl.ts)`];
  const patterns = new Set(accounts.flatMap((a) => ROLE_RULES[a.role].read.filter(hasClient)));
  if (patterns.size > 0) {
    lines.push('', '# every client: the responses addressed to its own client id');
    for (const rel of patterns) lines.push(`pattern read ${absoluteFilter(base, rel)}`);
  }
  for (const account of accounts) {
    if (!isBrokerUsername(account.username)) throw new Error(`invalid broker username ${JSON.stringify(account.username)}`);
    if (account.role === 'controller' && account.venue !== undefined) {
      const venue = venueControllerRules(account.venue);
      lines.push('', `# controller ${account.venue.controller}: its own bridge topics and tables`, `user ${account.username}`);
      for (const rel of venue.readwrite) lines.push(`topic readwrite ${absoluteFilter(base, rel)}`);
      for (const rel of venue.read) lines.push(`topic read ${absoluteFilter(base, rel)}`);
      continue;
    }
    const rule = ROLE_RULES[account.role];
    const read = rule.read.filter((rel) => !hasClient(rel));
    const write = rule.write.map((rel) => rel.split('/').map((l) => (l === CLIENT_PLACEHOLDER ? '+' : l)).join('/'));
    lines.push('', `# ${account.role}`, `user ${account.username}`);
    for (const rel of read) lines.push(`topic ${write.includes(rel) ? 'readwrite' : 'read'} ${absoluteFilter(base, rel)}`);
    for (const rel of write) if (!read.includes(rel)) lines.push(`topic write ${absoluteFilter(base, rel)}`);
  }
  return `${lines.join('\n')}\n`;
}
