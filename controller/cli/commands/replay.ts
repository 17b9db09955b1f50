/**
 * `zaptable replay FILE`: applies an action log and prints the resulting view.
 */
import { readFile } from 'node:fs/promises';
import type { Viewer } from '../../rules/common/viewer.ts';
import { getEngine } from '../../rules/games.ts';
import { parseActionLog, replayLog } from '../../scenarios/action-log.ts';
import { parse, UsageError } from '../args.ts';
import { renderTree, type Output } from '../output.ts';
import { replayDbCommand, replayDbHelp } from './replay-db.ts';

export const replayHelp = `zaptable replay FILE [--json] [--viewer public|omniscient|player:ID]

Applies an action log (JSON: {game, config, seed, actions}) and prints the resulting view
(default: the public view, as published on MQTT). Stops at the first rejected action and
reports its index, code and message (exit code 1).

  --json            print the view as JSON
  --viewer WHO      public (default), omniscient (everything), or player:ID (that player's view)

${replayDbHelp}`;

function parseViewer(text: string | undefined): Viewer {
  if (text === undefined || text === 'public') return { role: 'public' };
  if (text === 'omniscient') return { role: 'omniscient' };
  if (text.startsWith('player:') && text.length > 7) return { role: 'player', player: text.slice(7) };
  throw new UsageError(`--viewer must be public, omniscient or player:ID, got "${text}"`);
}

export async function replayCommand(argv: readonly string[], io: Output): Promise<number> {
  // A table's log in the event database (settling a dispute) rather than an action-log file.
  if (argv.some((a) => a === '--db' || a.startsWith('--db='))) return replayDbCommand(argv, io);
  const { values, positionals } = parse(argv, { json: { type: 'boolean' }, viewer: { type: 'string' } });
  const viewer = parseViewer(values.viewer);
  if (positionals.length !== 1) throw new UsageError('replay needs exactly one FILE');
  const file = positionals[0] as string;
  let json: unknown;
  try {
    json = JSON.parse(await readFile(file, 'utf8'));
  } catch (error) {
    io.err(`zaptable replay: ACTION_LOG_UNREADABLE: cannot read ${file}: ${(error as Error).message}`);
    return 1;
  }
  const parsed = parseActionLog(json);
  if (!parsed.ok) {
    for (const e of parsed.errors) io.err(`zaptable replay: ACTION_LOG_INVALID: ${file}: ${e}`);
    return 1;
  }
  const result = replayLog(parsed.log);
  if (!result.ok) {
    const where = result.index < 0 ? 'setup' : `action ${result.index}`;
    io.err(`zaptable replay: ${where} rejected: ${result.code}: ${result.message}`);
    return 1;
  }
  const engine = getEngine(parsed.log.game);
  const view = engine.view(result.state, viewer);
  if (values.json) {
    io.out(JSON.stringify(view, null, 2));
  } else {
    io.out(`${parsed.log.game}: ${result.applied} actions applied`);
    for (const line of renderTree(view)) io.out(line);
  }
  return 0;
}
