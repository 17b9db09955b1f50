import { describe, expect, it } from 'vitest';
import { filterCovers, mayPublish, mayReceive, maySubscribe } from '../../controller/transport/acl.ts';
import { mosquittoAcl } from '../../controller/transport/mosquitto-acl.ts';

const BASE = 'club/zaptable';

describe('filterCovers', () => {
  it.each([
    ['a/#', 'a', true],
    ['a/#', 'a/b/c', true],
    ['a/#', 'a/+', true],
    ['a/#', 'b', false],
    ['a/+/state', 'a/t1/state', true],
    ['a/+/state', 'a/+/state', true],
    ['a/+/state', 'a/#', false],
    ['a/+/state', 'a/t1/state/x', false],
    ['a/+/state', 'a/t1', false],
    ['a/t1/state', 'a/+/state', false],
    ['a/+/response/#', 'a/t1/response/c1/buzzer/arm', true],
    ['a/+/response/#', 'a/t1/request/roll', false],
  ])('%s covers %s: %s', (pattern, filter, expected) => {
    expect(filterCovers(pattern, filter)).toBe(expected);
  });
});

describe('roles', () => {
  it('lets only the controller publish state, events, status and health', () => {
    for (const topic of [`${BASE}/t1/state`, `${BASE}/t1/events`, `${BASE}/t1/status`, `${BASE}/t1/health/s1`, `${BASE}/bridge/pi-1/tables`]) {
      expect(mayPublish('controller', BASE, topic, 'c1')).toBe(true);
      expect(mayPublish('referee', BASE, topic, 'c1')).toBe(false);
      expect(mayPublish('viewer', BASE, topic, 'c1')).toBe(false);
    }
  });

  it('lets referees send requests only under their own client id, the controller anything, never viewers', () => {
    expect(mayPublish('referee', BASE, `${BASE}/t1/request/c1/roll`, 'c1')).toBe(true);
    expect(mayPublish('referee', BASE, `${BASE}/t1/request/c1/buzzer/arm`, 'c1')).toBe(true);
    expect(mayPublish('referee', BASE, `${BASE}/t1/request/c2/roll`, 'c1')).toBe(false);
    expect(mayPublish('referee', BASE, `${BASE}/t1/request/roll`, 'c1')).toBe(false);
    expect(mayPublish('controller', BASE, `${BASE}/t1/request/c9/roll`, 'c1')).toBe(true);
    expect(mayPublish('viewer', BASE, `${BASE}/t1/request/c1/roll`, 'c1')).toBe(false);
    expect(mayPublish('referee', BASE, `${BASE}/t1/response/c1/roll`, 'c1')).toBe(false);
  });

  it('lets a viewer send only the history request, under its own client id', () => {
    expect(mayPublish('viewer', BASE, `${BASE}/t1/request/c1/history`, 'c1')).toBe(true);
    expect(mayPublish('viewer', BASE, `${BASE}/t1/request/c2/history`, 'c1')).toBe(false);
    expect(mayPublish('viewer', BASE, `${BASE}/t1/request/c1/history/x`, 'c1')).toBe(false);
    expect(mayPublish('viewer', BASE, `${BASE}/t1/request/c1/buzzer/arm`, 'c1')).toBe(false);
  });

  it('lets a client read only the responses addressed to its own id; an id with / + # matches nothing', () => {
    expect(maySubscribe('referee', BASE, `${BASE}/+/response/c1/#`, 'c1')).toBe(true);
    expect(maySubscribe('referee', BASE, `${BASE}/+/response/#`, 'c1')).toBe(false);
    expect(maySubscribe('referee', BASE, `${BASE}/t1/response/c2/roll`, 'c1')).toBe(false);
    expect(maySubscribe('viewer', BASE, `${BASE}/+/response/c1/#`, 'c1')).toBe(true);
    expect(maySubscribe('viewer', BASE, `${BASE}/+/response/c2/#`, 'c1')).toBe(false);
    for (const id of ['a/b', '+', '#', '']) expect(maySubscribe('referee', BASE, `${BASE}/+/response/+/#`, id)).toBe(false);
  });

  it('refuses everything outside the base topic, wildcards in topics and $SYS', () => {
    expect(mayPublish('controller', BASE, 'other/t1/state', 'c1')).toBe(false);
    expect(mayPublish('controller', BASE, '$SYS/broker/x', 'c1')).toBe(false);
    expect(mayPublish('controller', BASE, `${BASE}/+/state`, 'c1')).toBe(false);
    expect(maySubscribe('viewer', BASE, '#', 'c1')).toBe(false);
  });

  it('lets every role read the public topics, and only the controller read requests', () => {
    for (const role of ['referee', 'viewer'] as const) {
      expect(maySubscribe(role, BASE, `${BASE}/+/state`, 'c1')).toBe(true);
      expect(maySubscribe(role, BASE, `${BASE}/t1/health/+`, 'c1')).toBe(true);
      expect(maySubscribe(role, BASE, `${BASE}/t1/response/#`, 'c1')).toBe(false);
      expect(maySubscribe(role, BASE, `${BASE}/bridge/+/tables`, 'c1')).toBe(true);
      expect(maySubscribe(role, BASE, `${BASE}/bridge/pi-1/status`, 'c1')).toBe(true);
      expect(maySubscribe(role, BASE, `${BASE}/bridge/#`, 'c1')).toBe(false);
      expect(maySubscribe(role, BASE, `${BASE}/#`, 'c1')).toBe(false);
      expect(maySubscribe(role, BASE, `${BASE}/t1/request/#`, 'c1')).toBe(false);
      expect(mayReceive(role, BASE, `${BASE}/t1/request/roll`, 'c1')).toBe(false);
    }
    expect(maySubscribe('controller', BASE, `${BASE}/#`, 'c1')).toBe(true);
  });
});

describe('mosquittoAcl', () => {
  it('writes one block per account from the same rules', () => {
    const text = mosquittoAcl(BASE, [{ username: 'zt-controller', role: 'controller' }, { username: 'dash', role: 'referee' }, { username: 'ov', role: 'viewer' }]);
    expect(text).toContain(`user zt-controller\ntopic readwrite ${BASE}/#\n`);
    expect(text).toContain(`user dash\ntopic read ${BASE}/bridge/+/status`);
    expect(text).toContain(`topic write ${BASE}/+/request/+/#`);
    expect(text).toContain(`pattern read ${BASE}/+/response/%c/#`);
    const viewerBlock = text.slice(text.indexOf('user ov'));
    // A viewer writes only history requests (any client level: Mosquitto has no %c on write, see mosquitto-acl.ts).
    expect(viewerBlock.split('\n').filter((l) => l.includes('write'))).toEqual([`topic write ${BASE}/+/request/+/history`]);
  });

  it('gives a venue controller its own bridge topics and tables only, and the others\' status and tables to read', () => {
    const text = mosquittoAcl(BASE, [
      { username: 'pi-1', role: 'controller', venue: { controller: 'pi-1', tables: ['t1', 't2'] } },
      { username: 'pi-2', role: 'controller', venue: { controller: 'pi-2', tables: ['t3'] } },
    ]);
    const block = text.slice(text.indexOf('user pi-1'), text.indexOf('# controller pi-2'));
    expect(block.trim().split('\n')).toEqual([
      'user pi-1',
      `topic readwrite ${BASE}/bridge/pi-1/#`, `topic readwrite ${BASE}/t1/#`, `topic readwrite ${BASE}/t2/#`,
      `topic read ${BASE}/bridge/+/status`, `topic read ${BASE}/bridge/+/tables`,
    ]);
    expect(text).not.toContain(`topic readwrite ${BASE}/#`);
    expect(() => mosquittoAcl(BASE, [{ username: 'pi', role: 'controller', venue: { controller: 'a/b', tables: [] } }])).toThrow(/invalid controller id/);
    expect(() => mosquittoAcl(BASE, [{ username: 'pi', role: 'controller', venue: { controller: 'pi', tables: ['bridge'] } }])).toThrow(/invalid table id/);
  });

  it('refuses usernames that would break the file', () => {
    expect(() => mosquittoAcl(BASE, [{ username: 'two words', role: 'viewer' }])).toThrow(/invalid broker username/);
  });
});
