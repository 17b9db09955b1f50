/**
 * Argument parsing for the subcommands, on Node's own `util.parseArgs` (strict: unknown options are errors).
 */
import { parseArgs, type ParseArgsConfig } from 'node:util';

export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

type Options = NonNullable<ParseArgsConfig['options']>;

export function parse<O extends Options>(argv: readonly string[], options: O) {
  try {
    return parseArgs({ args: [...argv], options, allowPositionals: true, strict: true });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

/** Reads a positive integer option, with a clear error naming the option. */
export function intOption(
  value: string | undefined, name: string, fallback: number, min = 1, max = Number.MAX_SAFE_INTEGER,
): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < min || n > max) throw new UsageError(`--${name} must be an integer from ${min} to ${max}, got "${value}"`);
  return n;
}
