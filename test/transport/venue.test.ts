/**
 * The venue's table id rule (controller/transport/venue.ts, docs/venue.md): a table id is taken only by another
 * controller that is online and lists it; a stale list of an offline controller and the controller's own
 * earlier list take nothing; notices name what other controllers announced; requests to a table nobody runs
 * are answered by the online controller with the smallest id.
 */
import { describe, expect, it } from 'vitest';
import { Topics } from '../../controller/transport/topics.ts';
import { VenueView } from '../../controller/transport/venue.ts';

const topics = new Topics('venue');

function view(self: string, messages: readonly (readonly [string, string])[]): VenueView {
  const v = new VenueView(self);
  for (const [topic, text] of messages) v.take(topics.parse(topic), text);
  return v;
}

const tables = (controller: string, ids: readonly string[], refused: readonly unknown[] = []): readonly [string, string] => [
  topics.bridgeTables(controller),
  JSON.stringify({ tables: ids.map((id) => ({ id })), controller, ...(refused.length > 0 ? { refused } : {}) }),
];
const status = (controller: string, value: string): readonly [string, string] => [topics.bridgeStatus(controller), value];

describe('the venue table id rule', () => {
  it('takes an id only for another controller that is online and lists it', () => {
    const v = view('pi-3', [tables('pi-1', ['t1', 't2']), status('pi-1', 'online'), tables('pi-2', ['t3']), status('pi-2', 'offline')]);
    expect(v.taken(['t1', 't3', 't9'])).toEqual([{ id: 't1', code: 'TABLE_ID_TAKEN', owner: 'pi-1' }]);
  });

  it('lets a stale list of an offline controller and the controller\'s own list take nothing', () => {
    const v = view('pi-1', [tables('pi-1', ['t1']), status('pi-1', 'online'), tables('pi-2', ['t2']), status('pi-2', 'offline')]);
    expect(v.taken(['t1', 't2'])).toEqual([]);
    // A list without a status yet (the status may come next) takes nothing either.
    expect(view('pi-1', [tables('pi-2', ['t2'])]).taken(['t2'])).toEqual([]);
  });

  it('ignores what is not a bridge list or status, and malformed lists', () => {
    const v = new VenueView('pi-1');
    expect(v.take(topics.parse('venue/t1/state'), '{}')).toBe(false);
    expect(v.take(topics.parse(topics.bridgeTables('pi-2')), 'not json')).toBe(true);
    expect(v.take(topics.parse(topics.bridgeStatus('pi-2')), 'online')).toBe(true);
    expect(v.taken(['t1'])).toEqual([]);
  });

  it('tells the running controller who refused its table and who runs it too', () => {
    const v = view('pi-1', [
      tables('pi-2', ['t5'], [{ id: 't1', code: 'TABLE_ID_TAKEN', owner: 'pi-1' }]), status('pi-2', 'online'),
      tables('pi-3', ['t2']), status('pi-3', 'online'),
    ]);
    expect(v.notices(['t1', 't2'])).toEqual([
      { code: 'TABLE_ID_TAKEN', table: 't1', other: 'pi-2' },
      { code: 'TABLE_ID_CONFLICT', table: 't2', other: 'pi-3' },
    ]);
  });

  it('leaves another controller\'s table to it, and a table nobody runs to the smallest online id', () => {
    const messages = [tables('pi-1', ['t1']), status('pi-1', 'online'), tables('pi-2', ['t2']), status('pi-2', 'online'), status('pi-0', 'offline')] as const;
    expect(view('pi-2', messages).answersFor('t1')).toBe(false);
    expect(view('pi-1', messages).answersFor('nope')).toBe(true);
    expect(view('pi-2', messages).answersFor('nope')).toBe(false);
    // Alone (nobody else online), a controller answers every unknown table.
    expect(view('pi-9', [status('pi-1', 'offline')]).answersFor('nope')).toBe(true);
  });
});
