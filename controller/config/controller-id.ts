/**
 * The default of `controller.id`: the host name, made into one MQTT topic level (the rule of table ids in
 * `transport/topics.ts`: letters, digits, `_ . -`, at most 64, starting with a letter or digit).
 */

const CONTROLLER_ID = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;

/**
 * A controller id made from a host name: every character that cannot stand in a topic level becomes `-`,
 * leading punctuation is dropped, at most 64 characters; `controller` when nothing usable is left.
 */
export function controllerIdOf(hostName: string): string {
  const id = hostName.replace(/[^A-Za-z0-9_.-]/g, '-').replace(/^[^A-Za-z0-9]+/, '').slice(0, 64);
  return CONTROLLER_ID.test(id) ? id : 'controller';
}
