/**
 * The request dispatcher's transaction store on top of the event log (controller/persistence): an answer is
 * committed to the database before it is published, so a request repeated after a restart (a referee tool
 * that lost the response when the controller went down) is answered from here instead of running twice.
 * The window is counted on the wall clock, which is what survives a restart.
 */
import type { EventLog } from '../persistence/index.ts';
import type { ResponsePayload, TransactionStore } from '../transport/index.ts';

export function transactionStoreOf(log: EventLog, wallMs: () => number = Date.now): TransactionStore {
  return {
    recall(key, windowMs) {
      const text = log.recallAnswer(key, wallMs() - windowMs);
      return text === undefined ? undefined : JSON.parse(text) as ResponsePayload;
    },
    remember(key, table, response, windowMs) {
      log.rememberAnswer(key, table, JSON.stringify(response), wallMs() - windowMs);
    },
  };
}
