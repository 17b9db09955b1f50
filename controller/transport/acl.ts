/**
 * Who may publish and subscribe to what (design principle 10), as data: the embedded broker's hooks
 * (`embedded-broker.ts`) and the generated Mosquitto ACL file (`mosquitto-acl.ts`) are both derived from
 * `ROLE_RULES`, so the two brokers enforce the same contract.
 *
 * - `controller`: the zaptable controller itself; publishes and reads everything under the base topic.
 * - `referee`: a dashboard or referee tool; sends requests and reads everything public.
 * - `viewer`: overlays, lighting desks, spectators' dashboards; reads everything public and publishes only the
 *   `history` request (answered with public events it could have read live; docs/venue-offline.md).
 *
 * Requests are readable by the controller only: they carry referee tokens. Responses are readable only by the
 * client that asked: a filter may contain `%c`, which stands for the client's own id (as in Mosquitto's
 * pattern ACLs), so `+/response/%c/#` is "the responses addressed to me" and `+/request/%c/#` "requests
 * signed with my own client id". The controller reads the client level of a request topic as the sender.
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

/** What every role may read: the public topics (not requests, which carry tokens, nor other clients' responses). */
export const PUBLIC_READ: readonly string[] = [
  'bridge/+/status', 'bridge/+/tables', 'bridge/+/health', '+/status', '+/state', '+/events', '+/health/+', '+/audit',
];

/** The placeholder for the client's own id in a filter. */
export const CLIENT_PLACEHOLDER = '%c';

/** The responses addressed to the client itself. */
export const OWN_RESPONSES = '+/response/%c/#';

export const ROLE_RULES: Readonly<Record<Role, RoleRule>> = {
  controller: { write: ['#'], read: ['#'] },
  referee: { write: ['+/request/%c/#'], read: [...PUBLIC_READ, OWN_RESPONSES] },
  viewer: { write: ['+/request/%c/history'], read: [...PUBLIC_READ, OWN_RESPONSES] },
};

/**
 * A filter of the rules with `%c` replaced by the client id, or undefined when the id cannot be one topic level
 * (it is then matched by nothing: an id with `/`, `+` or `#` must not widen what a client may reach).
 */
export function substituteClient(relative: string, clientId: string): string | undefined {
  if (!relative.includes(CLIENT_PLACEHOLDER)) return relative;
  if (clientId.length === 0 || /[/+#]/.test(clientId) || clientId.includes('\u0000')) return undefined;
  return relative.split('/').map((level) => (level === CLIENT_PLACEHOLDER ? clientId : level)).join('/');
}

function rulesFor(filters: readonly string[], base: string, clientId: string): string[] {
  return filters.flatMap((rel) => {
    const concrete = substituteClient(rel, clientId);
    return concrete === undefined ? [] : [absoluteFilter(base, concrete)];
  });
}

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

/** Whether the client `clientId` of `role` may publish to `topic` under `base`. */
export function mayPublish(role: Role, base: string, topic: string, clientId: string): boolean {
  if (topic.includes('+') || topic.includes('#')) return false;
  return rulesFor(ROLE_RULES[role].write, base, clientId).some((abs) => filterCovers(abs, topic));
}

/** Whether the client `clientId` of `role` may subscribe to `filter` under `base`. */
export function maySubscribe(role: Role, base: string, filter: string, clientId: string): boolean {
  return rulesFor(ROLE_RULES[role].read, base, clientId).some((abs) => filterCovers(abs, filter));
}

/** Whether a message on `topic` may be delivered to that client (a topic is a filter without wildcards). */
export function mayReceive(role: Role, base: string, topic: string, clientId: string): boolean {
  return maySubscribe(role, base, topic, clientId);
}
