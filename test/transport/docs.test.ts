/**
 * docs/mqtt.md is the contract other engineers implement against: every topic, request, error code and table
 * event must be documented there, every JSON example must parse, and the Mosquitto ACL shown must be the one
 * the code generates.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { TRANSPORT_ERRORS } from '../../controller/transport/errors.ts';
import { mosquittoAcl } from '../../controller/transport/mosquitto-acl.ts';
import { MOSQUITTO_QUEUE_LIMITS } from '../../controller/bench/mosquitto.ts';
import { TABLE_EVENT_TYPES } from '../../controller/transport/payloads.ts';
import { REQUEST_NAMES } from '../../controller/transport/requests.ts';
import { TOPIC_SPECS } from '../../controller/transport/topics.ts';

const doc = readFileSync(path.resolve(import.meta.dirname, '..', '..', 'docs', 'mqtt.md'), 'utf8');

/** The fenced code blocks with the given info string ('' for plain fences), in order. */
function blocks(language: string): string[] {
  const found: string[] = [];
  let open: { readonly language: string; readonly lines: string[] } | undefined;
  for (const line of doc.split('\n')) {
    if (!line.startsWith('```')) {
      open?.lines.push(line);
    } else if (open === undefined) {
      open = { language: line.slice(3).trim(), lines: [] };
    } else {
      if (open.language === language) found.push(`${open.lines.join('\n')}\n`);
      open = undefined;
    }
  }
  return found;
}

describe('docs/mqtt.md', () => {
  it('documents every topic in the topic table', () => {
    for (const spec of Object.values(TOPIC_SPECS)) expect(doc).toContain(`| \`<base>/${spec.pattern}\` |`);
  });

  it('documents every request, error code and table event', () => {
    for (const name of REQUEST_NAMES) expect(doc).toContain(`| \`${name}\` |`);
    for (const code of Object.keys(TRANSPORT_ERRORS)) expect(doc).toContain(`| \`${code}\` |`);
    for (const type of TABLE_EVENT_TYPES) expect(doc).toContain(`| \`${type}\` |`);
  });

  it('has JSON examples that parse', () => {
    const examples = blocks('json');
    expect(examples.length).toBeGreaterThan(15);
    for (const example of examples) expect(() => JSON.parse(example) as unknown).not.toThrow();
  });

  it('shows the Mosquitto ACL the code generates', () => {
    const generated = mosquittoAcl('zaptable', [
      { username: 'zt-controller', role: 'controller' }, { username: 'dashboard', role: 'referee' }, { username: 'overlay', role: 'viewer' },
    ]);
    const withoutHeader = generated.slice(generated.indexOf('\n') + 1).trimStart();
    expect(blocks('').some((block) => block === withoutHeader)).toBe(true);
  });

  it('shows the Mosquitto queue limits the tests and benchmarks start Mosquitto with', () => {
    const conf = blocks('').find((block) => block.includes('max_packet_size'));
    for (const line of MOSQUITTO_QUEUE_LIMITS) expect(conf).toContain(`\n${line}\n`);
  });
});
