/**
 * The flags node runs a controller with (`npm start`, the systemd unit, `zaptable bench memory`): they trade a
 * little CPU for memory, which a Raspberry Pi has less of (docs/performance.md, "Memory of the controller's
 * process", has the figures with and without them).
 *
 * - `--optimize-for-size`: V8 keeps its young generation small and grows the heap less eagerly.
 * - `--single-threaded`: V8 compiles and collects on the main thread instead of helper threads; each helper
 *   thread's malloc arena kept memory that was freed long ago.
 *
 * V8 reads both when it starts, so they must be on node's command line: set from inside the process
 * (`v8.setFlagsFromString`) the second has no effect.
 */
export const CONTROLLER_NODE_FLAGS = ['--optimize-for-size', '--single-threaded'] as const;

/** The flags of CONTROLLER_NODE_FLAGS that this process was not started with. */
export function missingNodeFlags(execArgv: readonly string[] = process.execArgv): string[] {
  return CONTROLLER_NODE_FLAGS.filter((flag) => !execArgv.includes(flag));
}

/** The command that runs `zaptable <args>` with the controller's flags and without npm's process beside it. */
export function nodeCommand(args: string): string {
  return `node ${CONTROLLER_NODE_FLAGS.join(' ')} bin/zaptable.mjs ${args}`;
}
