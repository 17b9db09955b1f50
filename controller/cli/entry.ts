/**
 * The process entry of the `zaptable` command: what bin/zaptable.mjs runs (from source through tsx, or the
 * prebuilt bundle in dist/).
 */
import { main } from './main.ts';

process.exitCode = await main(process.argv.slice(2));
