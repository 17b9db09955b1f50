/**
 * Defaults that are data rather than single values: the demo table an empty configuration runs, the file the
 * controller looks for, and the names of the environment variables. Single-value defaults live beside their
 * key in the schema (`default:`), so there is one place to read them.
 */

/** Looked for in the working directory when no file is named (and `ZAPTABLE_CONFIG` is not set). */
export const DEFAULT_CONFIG_FILE = 'zaptable.yaml';

/** Names a config file, like `--config`; a file named on the command line wins. */
export const CONFIG_FILE_ENV = 'ZAPTABLE_CONFIG';

/**
 * What `tables:` is when the file leaves it out: one simulated Zapp Zerapp table with four seats, which bots
 * play on the default simulated hardware. `zaptable start` with no file at all runs this demo.
 */
export const DEMO_TABLES = [{
  id: 'table-1',
  name: 'Table 1',
  mode: 'zapp-zerapp',
  seats: [
    { id: 'red', name: 'Red', station: 'seat-1', colour: 'red' },
    { id: 'green', name: 'Green', station: 'seat-2', colour: 'green' },
    { id: 'blue', name: 'Blue', station: 'seat-3', colour: 'blue' },
    { id: 'yellow', name: 'Yellow', station: 'seat-4', colour: 'yellow' },
  ],
}] as const;
