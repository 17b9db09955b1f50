import { describe, expect, it } from 'vitest';
import { TOPIC_SPECS, Topics, baseTopicProblem, encodePayload } from '../../controller/transport/topics.ts';
import { controllerIdOf } from '../../controller/config/controller-id.ts';

describe('Topics', () => {
  const topics = new Topics('club/zaptable');

  it('builds every topic under the base', () => {
    expect(topics.bridgeStatus('pi-1')).toBe('club/zaptable/bridge/pi-1/status');
    expect(topics.bridgeTables('pi-1')).toBe('club/zaptable/bridge/pi-1/tables');
    expect(topics.bridgeFilter('tables')).toBe('club/zaptable/bridge/+/tables');
    expect(topics.tableRequestFilter('t1')).toBe('club/zaptable/t1/request/#');
    expect(topics.state('t1')).toBe('club/zaptable/t1/state');
    expect(topics.events('t1')).toBe('club/zaptable/t1/events');
    expect(topics.status('t1')).toBe('club/zaptable/t1/status');
    expect(topics.health('t1', 'seat-2')).toBe('club/zaptable/t1/health/seat-2');
    expect(topics.bridgeHealth('pi-1')).toBe('club/zaptable/bridge/pi-1/health');
    expect(topics.request('t1', 'dash-1', 'buzzer/arm')).toBe('club/zaptable/t1/request/dash-1/buzzer/arm');
    expect(topics.response('t1', 'dash-1', 'buzzer/arm')).toBe('club/zaptable/t1/response/dash-1/buzzer/arm');
    expect(topics.requestFilter()).toBe('club/zaptable/+/request/#');
    expect(topics.responseFilter('dash-1')).toBe('club/zaptable/+/response/dash-1/#');
  });

  it('parses what it builds', () => {
    expect(topics.parse(topics.bridgeTables('pi-1'))).toEqual({ kind: 'bridgeTables', controller: 'pi-1' });
    expect(topics.parse(topics.bridgeStatus('bar.pi_2'))).toEqual({ kind: 'bridgeStatus', controller: 'bar.pi_2' });
    expect(topics.parse(topics.state('t1'))).toEqual({ kind: 'state', table: 't1' });
    expect(topics.parse(topics.health('t1', 's1'))).toEqual({ kind: 'health', table: 't1', station: 's1' });
    expect(topics.parse(topics.request('t1', 'c1', 'buzzer/arm'))).toEqual({ kind: 'request', table: 't1', client: 'c1', name: 'buzzer/arm' });
    expect(topics.parse(topics.bridgeHealth('pi-1'))).toEqual({ kind: 'bridgeHealth', controller: 'pi-1' });
  });

  it('takes any request topic apart and mirrors it as its response topic, also malformed ones', () => {
    expect(topics.parseRequest('club/zaptable/t1/request/c1/buzzer/arm'))
      .toEqual({ table: 't1', client: 'c1', name: 'buzzer/arm', responseTopic: 'club/zaptable/t1/response/c1/buzzer/arm' });
    expect(topics.parseRequest('club/zaptable//request/c1//roll'))
      .toEqual({ table: '', client: 'c1', name: '/roll', responseTopic: 'club/zaptable//response/c1//roll' });
    expect(topics.parseRequest('club/zaptable/bridge/request/c1')).toMatchObject({ table: 'bridge', name: '', responseTopic: 'club/zaptable/bridge/response/c1' });
    expect(topics.parseRequest('club/zaptable/t1/state')).toBeNull();
    expect(topics.parseRequest('other/t1/request/c1/roll')).toBeNull();
  });

  it('returns null for foreign and malformed topics', () => {
    for (const topic of ['zaptable/t1/state', 'club/zaptable', 'club/zaptable/t1', 'club/zaptable/t1/state/x', 'club/zaptable/t1/request',
      'club/zaptable/t1/request//x', 'club/zaptable/t1/request/c1', 'club/zaptable/t1/request/c1//x', 'club/zaptable/bridge/other', 'club/zaptable/t1/health/a/b',
      // Bridge topics have the controller level; the single-controller form of before is not recognised.
      'club/zaptable/bridge/status', 'club/zaptable/bridge/tables', 'club/zaptable/bridge/pi-1/other', 'club/zaptable/bridge/pi-1/status/x']) {
      expect(topics.parse(topic)).toBeNull();
    }
  });

  it('refuses ids that would change the topic structure', () => {
    expect(() => topics.state('a/b')).toThrow(/invalid table id/);
    expect(() => topics.state('+')).toThrow(/invalid table id/);
    expect(() => topics.state('bridge')).toThrow(/invalid table id/);
    expect(() => topics.health('t1', '#')).toThrow(/invalid station id/);
    expect(() => topics.request('t1', 'c1', 'Roll!')).toThrow(/invalid request name/);
    expect(() => topics.request('t1', 'a/b', 'roll')).toThrow(/invalid client id/);
    expect(() => topics.bridgeStatus('a/b')).toThrow(/invalid controller id/);
    expect(() => topics.bridgeTables('+')).toThrow(/invalid controller id/);
  });

  it('makes a controller id of any host name', () => {
    expect(controllerIdOf('pi-table-3')).toBe('pi-table-3');
    expect(controllerIdOf('bar pi #2')).toBe('bar-pi--2');
    expect(controllerIdOf('.hidden')).toBe('hidden');
    expect(controllerIdOf('x'.repeat(80))).toBe('x'.repeat(64));
    expect(controllerIdOf('')).toBe('controller');
    expect(controllerIdOf('///')).toBe('controller');
  });

  it('refuses unusable base topics', () => {
    for (const base of ['', '/zaptable', 'zaptable/', 'a//b', 'a/+', '#', '$SYS']) expect(baseTopicProblem(base)).toBeDefined();
    expect(() => new Topics('a/#')).toThrow(/may not contain/);
    expect(new Topics().base).toBe('zaptable');
  });

  it('sends availability as a bare string and everything else as JSON', () => {
    expect(encodePayload('status', 'online')).toBe('online');
    expect(encodePayload('bridgeTables', { tables: [{ id: 't1' }] })).toBe('{"tables":[{"id":"t1"}]}');
    expect(Object.values(TOPIC_SPECS).filter((s) => s.retained).map((s) => s.pattern).sort())
      .toEqual(['<table>/audit', '<table>/health/<station>', '<table>/state', '<table>/status', 'bridge/<controller>/health', 'bridge/<controller>/status', 'bridge/<controller>/tables']);
  });
});
