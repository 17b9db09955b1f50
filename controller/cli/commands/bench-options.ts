/**
 * Options the broker benchmarks share (`bench latency`, `bench flood`).
 */
import type { BrokerKind } from '../../bench/pipeline.ts';
import { UsageError } from '../args.ts';

/** `--broker embedded|mosquitto|both` (default both) as the brokers to run against, in that order. */
export function brokersOption(value: string | undefined): BrokerKind[] {
  switch (value ?? 'both') {
    case 'both': return ['embedded', 'mosquitto'];
    case 'embedded': return ['embedded'];
    case 'mosquitto': return ['mosquitto'];
    default: throw new UsageError('--broker must be embedded, mosquitto or both');
  }
}
