/**
 * The `history` request (docs/mqtt.md, docs/venue-offline.md): pages of a table's recorded public events, within
 * the packet limit, asked without a token; every other request still needs one.
 */
import { describe, expect, it } from 'vitest';
import { HISTORY_MAX_BYTES, historyPage, type EventHistory, type RecordedEvent } from '../../controller/transport/event-history.ts';
import { RequestDispatcher } from '../../controller/transport/request-dispatcher.ts';

/** A history in memory: table → epoch → events by seq. */
function memoryHistory(): EventHistory & { rows: Map<string, RecordedEvent[]> } {
  const rows = new Map<string, RecordedEvent[]>();
  const key = (table: string, epoch: number): string => `${table}@${epoch}`;
  return {
    rows,
    record: (table, epoch, seq, _at, payload) => {
      const list = rows.get(key(table, epoch)) ?? [];
      list.push({ seq, payload });
      rows.set(key(table, epoch), list);
    },
    read: (table, epoch, fromSeq, limit) => (rows.get(key(table, epoch)) ?? []).filter((r) => r.seq >= fromSeq).slice(0, limit),
    lastSeq: (table, epoch) => rows.get(key(table, epoch))?.at(-1)?.seq ?? 0,
  };
}

function filled(count: number, pad = 0, epoch = 100): ReturnType<typeof memoryHistory> {
  const history = memoryHistory();
  for (let seq = 1; seq <= count; seq++) {
    history.record('t1', epoch, seq, seq, JSON.stringify({ type: 'X', seq, epoch, at: seq, pad: 'p'.repeat(pad) }));
  }
  return history;
}

describe('history pages', () => {
  it('gives the events from fromSeq, at most limit, and where the next page starts', () => {
    const history = filled(12);
    const first = historyPage(history, 't1', 100, { fromSeq: 3, limit: 5 });
    expect(first.events.map((e) => (e as { seq: number }).seq)).toEqual([3, 4, 5, 6, 7]);
    expect(first).toMatchObject({ epoch: 100, current: true, lastSeq: 12, next: 8 });
    const last = historyPage(history, 't1', 100, { fromSeq: 8, limit: 5 });
    expect(last.next).toBeNull();
    expect(historyPage(history, 't1', 100, { fromSeq: 13 })).toMatchObject({ events: [], next: null, lastSeq: 12 });
    expect(historyPage(history, 't1', 100, { fromSeq: 10 })).toMatchObject({ next: null });
  });

  it('keeps a page under the packet limit, and always advances by one event at least', () => {
    const history = filled(40, 10_000);
    const page = historyPage(history, 't1', 100, { fromSeq: 1, limit: 500 });
    expect(JSON.stringify(page.events).length).toBeLessThanOrEqual(HISTORY_MAX_BYTES + 1000);
    expect(page.events.length).toBe(13);
    expect(page.next).toBe(14);
    const huge = filled(2, HISTORY_MAX_BYTES * 2);
    expect(historyPage(huge, 't1', 100, { fromSeq: 1 }).events).toHaveLength(1);
  });

  it('answers another controller start by its epoch', () => {
    const history = filled(3, 0, 50);
    expect(historyPage(history, 't1', 100, { fromSeq: 1, epoch: 50 })).toMatchObject({ epoch: 50, current: false, lastSeq: 3, next: null });
    expect(historyPage(history, 't1', 100, { fromSeq: 1 }).events).toEqual([]);
  });
});

describe('the history request', () => {
  it('needs no token; every other request still does', async () => {
    const history = filled(3);
    const dispatcher = new RequestDispatcher({ tokens: [], tables: ['t1'] });
    dispatcher.onRequest('history', (params, { table }) => Promise.resolve({ ok: true, data: historyPage(history, table, 100, params) }));
    const ok = await dispatcher.dispatch({ table: 't1', client: 'viewer-1', name: 'history' }, JSON.stringify({ fromSeq: 2 }));
    expect(ok).toMatchObject({ status: 'ok', data: { lastSeq: 3, next: null } });
    const roll = await dispatcher.dispatch({ table: 't1', client: 'viewer-1', name: 'roll' }, JSON.stringify({}));
    expect(roll).toMatchObject({ status: 'error', error: { code: 'UNAUTHORIZED' } });
    const bad = await dispatcher.dispatch({ table: 't1', client: 'viewer-1', name: 'history' }, JSON.stringify({ fromSeq: 0 }));
    expect(bad).toMatchObject({ status: 'error', error: { code: 'INVALID_REQUEST' } });
  });
});
