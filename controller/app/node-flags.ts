/**
 * The flags node runs a controller with (`npm start`, the systemd unit, `zaptable bench memory`): they trade a
 * little CPU for memory, which a Raspberry Pi has less of (docs/performance.md, "Memory of the controller's
 * process", has the figures with and without them).
 *
 * - `--optimize-for-size`: V8 keeps its young generation small and grows the heap less eagerly.
 * - `--single-threaded`: V8 compiles and collects on the main thread instead of helper threads; each helper
 *   thread's malloc arena kept memory that was freed long ago.
 * - `--no-opt`: no optimising compiler (TurboFan); code runs in V8's interpreter and its baseline compiler. The
 *   optimiser's own machine code is ~4 MB of node's binary that stays resident once it has run once (measured:
 *   the process's file-backed RSS 45.0 → 41.0 MB), plus the optimised code. A table sends tens of lines a second:
 *   the demo's CPU rose from 3.3 % to 5.3 % of a core; under a flood the controller absorbs fewer lines a second
 *   (docs/performance.md has both).
 *
 * V8 reads them when it starts, so they must be on node's command line: set from inside the process
 * (`v8.setFlagsFromString`) `--single-threaded` has no effect.
 */
export const CONTROLLER_NODE_FLAGS = ['--optimize-for-size', '--single-threaded', '--no-opt'] as const;

/** The flags of CONTROLLER_NODE_FLAGS that this process was not started with. */
export function missingNodeFlags(execArgv: readonly string[] = process.execArgv): string[] {
  return CONTROLLER_NODE_FLAGS.filter((flag) => !execArgv.includes(flag));
}

/** The command that runs `zaptable <args>` with the controller's flags and without npm's process beside it. */
export function nodeCommand(args: string): string {
  return `node ${CONTROLLER_NODE_FLAGS.join(' ')} bin/zaptable.mjs ${args}`;
}
