/**
 * Mosquitto configuration for an external broker that enforces the same roles as the embedded one
 * (`acl.ts`). Used by the contract tests and documented in docs/mqtt.md; an operator can paste its output.
 */
import { ROLE_RULES, absoluteFilter, type Role } from './acl.ts';

/** A broker account. */
export interface BrokerAccount {
  /** Letters, digits, `_ . -` (Mosquitto's ACL file is line- and space-separated). */
  readonly username: string;
  readonly role: Role;
}

const USERNAME = /^[A-Za-z0-9_.-]{1,64}$/;

/** Whether a username can appear in a Mosquitto ACL file (and in the embedded broker's user list). */
export function isBrokerUsername(name: string): boolean {
  return USERNAME.test(name);
}

/**
 * The text of a Mosquitto `acl_file` for these accounts under `base`. Mosquitto checks `read` rules on
 * SUBSCRIBE and again on every delivered message, and drops publishes that no `write` rule allows.
 */
export function mosquittoAcl(base: string, accounts: readonly BrokerAccount[]): string {
  const lines = [`# zaptable ACL for base topic "${base}" (generated; roles in controller/transport/acl.ts)`];
  for (const account of accounts) {
    if (!isBrokerUsername(account.username)) throw new Error(`invalid broker username ${JSON.stringify(account.username)}`);
    const rule = ROLE_RULES[account.role];
    const write = new Set(rule.write);
    lines.push('', `# ${account.role}`, `user ${account.username}`);
    for (const rel of rule.read) lines.push(`topic ${write.has(rel) ? 'readwrite' : 'read'} ${absoluteFilter(base, rel)}`);
    for (const rel of rule.write) if (!rule.read.includes(rel)) lines.push(`topic write ${absoluteFilter(base, rel)}`);
  }
  return `${lines.join('\n')}\n`;
}
