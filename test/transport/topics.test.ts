import { describe, expect, it } from 'vitest';
import { TOPIC_SPECS, Topics, baseTopicProblem, encodePayload } from '../../controller/transport/topics.ts';

describe('Topics', () => {
  const topics = new Topics('club/zaptable');

  it('builds every topic under the base', () => {
    expect(topics.bridgeStatus()).toBe('club/zaptable/bridge/status');
    expect(topics.bridgeTables()).toBe('club/zaptable/bridge/tables');
    expect(topics.state('t1')).toBe('club/zaptable/t1/state');
    expect(topics.events('t1')).toBe('club/zaptable/t1/events');
    expect(topics.status('t1')).toBe('club/zaptable/t1/status');
    expect(topics.health('t1', 'seat-2')).toBe('club/zaptable/t1/health/seat-2');
    expect(topics.request('t1', 'buzzer/arm')).toBe('club/zaptable/t1/request/buzzer/arm');
    expect(topics.response('t1', 'buzzer/arm')).toBe('club/zaptable/t1/response/buzzer/arm');
    expect(topics.requestFilter('t1')).toBe('club/zaptable/t1/request/#');
  });

  it('parses what it builds', () => {
    expect(topics.parse(topics.bridgeTables())).toEqual({ kind: 'bridgeTables' });
    expect(topics.parse(topics.state('t1'))).toEqual({ kind: 'state', table: 't1' });
    expect(topics.parse(topics.health('t1', 's1'))).toEqual({ kind: 'health', table: 't1', station: 's1' });
    expect(topics.parse(topics.request('t1', 'buzzer/arm'))).toEqual({ kind: 'request', table: 't1', name: 'buzzer/arm' });
  });

  it('returns null for foreign and malformed topics', () => {
    for (const topic of ['zaptable/t1/state', 'club/zaptable', 'club/zaptable/t1', 'club/zaptable/t1/state/x', 'club/zaptable/t1/request',
      'club/zaptable/t1/request//x', 'club/zaptable/bridge/other', 'club/zaptable/t1/health/a/b']) {
      expect(topics.parse(topic)).toBeNull();
    }
  });

  it('refuses ids that would change the topic structure', () => {
    expect(() => topics.state('a/b')).toThrow(/invalid table id/);
    expect(() => topics.state('+')).toThrow(/invalid table id/);
    expect(() => topics.state('bridge')).toThrow(/invalid table id/);
    expect(() => topics.health('t1', '#')).toThrow(/invalid station id/);
    expect(() => topics.request('t1', 'Roll!')).toThrow(/invalid request name/);
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
      .toEqual(['<table>/health/<station>', '<table>/state', '<table>/status', 'bridge/status', 'bridge/tables']);
  });
});
