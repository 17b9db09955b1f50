/**
 * What the benchmark commands share: the broker option (`bench latency`, `bench flood`) and how a benchmark's
 * progress and result reach the terminal.
 */
import type { BrokerKind } from '../../bench/pipeline.ts';
import { UsageError } from '../args.ts';
import type { Output } from '../output.ts';

/**
 * Runs a benchmark with its progress on the terminal's status line, then prints its result: as JSON with
 * `--json`, otherwise as its report's lines. Exit code 0: benchmarks print figures, they are not pass/fail tests.
 */
export async function runAndReport<R>(
  io: Output, name: string, json: boolean,
  run: (progress: (text: string) => void) => Promise<R>,
  report: (result: R) => Iterable<string>,
): Promise<number> {
  const result = await run((text) => {
    io.progress(`bench ${name}: ${text}`);
  });
  io.progress('');
  if (json) {
    io.out(JSON.stringify(result, null, 2));
    return 0;
  }
  for (const line of report(result)) io.out(line);
  return 0;
}

/** `--broker embedded|mosquitto|both` (default both) as the brokers to run against, in that order. */
export function brokersOption(value: string | undefined): BrokerKind[] {
  switch (value ?? 'both') {
    case 'both': return ['embedded', 'mosquitto'];
    case 'embedded': return ['embedded'];
    case 'mosquitto': return ['mosquitto'];
    default: throw new UsageError('--broker must be embedded, mosquitto or both');
  }
}
