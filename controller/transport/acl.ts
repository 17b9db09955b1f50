/**
 * Who may publish and subscribe to what (design principle 10), as data: the embedded broker's hooks
 * (`embedded-broker.ts`) and the generated Mosquitto ACL file (`mosquitto-acl.ts`) are both derived from
 * `ROLE_RULES`, so the two brokers enforce the same contract.
 *
 * - `controller`: the zaptable controller itself; publishes and reads everything under the base topic.
 * - `referee`: a dashboard or referee tool; sends requests and reads everything public.
 * - `viewer`: overlays, lighting desks, spectators' dashboards; reads everything public, publishes nothing.
 *
 * Requests are readable by the controller only: they carry referee tokens.
 */

export type Role = 'controller' | 'referee' | 'viewer';

export const ROLES: readonly Role[] = ['controller', 'referee', 'viewer'];

/** Topic filters relative to the base topic. */
export interface RoleRule {
  /** Filters a client may publish to (every topic matching one of them). */
  readonly write: readonly string[];
  /** Filters a client may subscribe to (a subscription must lie entirely inside one of them). */
  readonly read: readonly string[];
}

/** What every role but the controller may read: everything except requests. */
export const PUBLIC_READ: readonly string[] = [
  'bridge/status', 'bridge/tables', '+/status', '+/state', '+/events', '+/health/+', '+/response/#',
];

export const ROLE_RULES: Readonly<Record<Role, RoleRule>> = {
  controller: { write: ['#'], read: ['#'] },
  referee: { write: ['+/request/#'], read: PUBLIC_READ },
  viewer: { write: [], read: PUBLIC_READ },
};

/** An ACL filter made absolute under the base topic (`#` alone means the base and everything below it). */
export function absoluteFilter(base: string, relative: string): string {
  return `${base}/${relative}`;
}

/**
 * Whether every topic matched by `filter` is also matched by `pattern` (both MQTT topic filters; a plain topic
 * is a filter without wildcards). Used for publish checks (filter = the topic) and subscribe checks.
 */
export function filterCovers(pattern: string, filter: string): boolean {
  const p = pattern.split('/');
  const f = filter.split('/');
  for (let i = 0; i < p.length; i++) {
    const pl = p[i];
    const fl = f[i];
    // `a/#` matches `a` as well as everything below it.
    if (pl === '#') return i === p.length - 1;
    if (fl === undefined || fl === '#') return false;
    if (pl === '+') continue;
    if (fl === '+' || fl !== pl) return false;
  }
  return f.length === p.length;
}

/** Whether a client of `role` may publish to `topic` under `base`. */
export function mayPublish(role: Role, base: string, topic: string): boolean {
  if (topic.includes('+') || topic.includes('#')) return false;
  return ROLE_RULES[role].write.some((rel) => filterCovers(absoluteFilter(base, rel), topic));
}

/** Whether a client of `role` may subscribe to `filter` under `base`. */
export function maySubscribe(role: Role, base: string, filter: string): boolean {
  return ROLE_RULES[role].read.some((rel) => filterCovers(absoluteFilter(base, rel), filter));
}

/** Whether a message on `topic` may be delivered to a client of `role` (a topic is a filter without wildcards). */
export function mayReceive(role: Role, base: string, topic: string): boolean {
  return maySubscribe(role, base, topic);
}
