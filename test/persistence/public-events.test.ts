/**
 * The log's `public_events` (migration 4): every published event kept as it was sent, per table and controller
 * start, read back by seq (docs/venue-offline.md); append-only like the rest of the log.
 */
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { newFile, openLog } from './helpers.ts';

describe('public events in the log', () => {
  it('keeps each event\'s text under (table, epoch, seq) and reads them back in seq order, after a reopen', () => {
    const file = newFile('public-events');
    const log = openLog(file);
    for (const seq of [1, 2, 3]) log.appendPublicEvent('t1', 100, seq, 1000 + seq, `{"seq":${seq}}`);
    log.appendPublicEvent('t2', 100, 1, 1000, '{"other":true}');
    log.appendPublicEvent('t1', 200, 1, 2000, '{"restart":true}');
    log.commit();
    log.close();
    const again = openLog(file);
    expect(again.reader.publicEvents('t1', 100, 2, 10)).toEqual([{ seq: 2, payload: '{"seq":2}' }, { seq: 3, payload: '{"seq":3}' }]);
    expect(again.reader.publicEvents('t1', 100, 1, 1)).toHaveLength(1);
    expect(again.reader.lastPublicSeq('t1', 100)).toBe(3);
    expect(again.reader.lastPublicSeq('t1', 200)).toBe(1);
    expect(again.reader.lastPublicSeq('t3', 100)).toBe(0);
    again.close();
  });

  it('refuses a second event under the same number, and any change or removal', () => {
    const file = newFile('public-events-append-only');
    const log = openLog(file);
    log.appendPublicEvent('t1', 100, 1, 1000, '{"seq":1}');
    expect(() => {
      log.appendPublicEvent('t1', 100, 1, 1000, '{"seq":1,"again":true}');
    }).toThrow(/LOG_WRITE_FAILED|UNIQUE/);
    log.commit();
    log.close();
    const db = new Database(file);
    expect(() => db.prepare('UPDATE public_events SET payload = ?').run('{}')).toThrow(/LOG_APPEND_ONLY/);
    expect(() => db.prepare('DELETE FROM public_events').run()).toThrow(/LOG_APPEND_ONLY/);
    db.close();
  });
});
