/**
 * Zapp Zerapp's events in sentences: a violation with its rule in words (as the Violations panel says it), the
 * rest as every game says it (common.ts) with this game's refusal sentences.
 */
import { VIOLATION_KINDS } from '../../../../controller/rules/zapp-zerapp/state.ts';
import { describeEvent } from '../../event-text.ts';
import type { PublicEventJson } from '../../types.ts';
import { ZAPP_REFUSALS } from './refusals.ts';

export function describeZappEvent(e: PublicEventJson, nameOf: (id: string) => string): string {
  if (e.type === 'VIOLATION_REPORTED' && typeof e.player === 'string' && typeof e.kind === 'string') {
    const rule = (VIOLATION_KINDS as Readonly<Record<string, string>>)[e.kind] ?? e.kind.toLowerCase().replaceAll('_', ' ');
    return `Violation by ${nameOf(e.player)}: ${rule}${typeof e.detail === 'string' ? ` — ${e.detail}` : ''}`;
  }
  return describeEvent(e, nameOf, ZAPP_REFUSALS);
}
