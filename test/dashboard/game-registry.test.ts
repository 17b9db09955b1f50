/**
 * The plug-in boundary in the dashboard (docs/adding-a-game.md, "The dashboard"): every game the controller
 * knows has its `GameUi` in dashboard/web/games/registry.ts, and no dashboard file outside a game's own folder
 * `dashboard/web/games/<id>/` names a game id in a string (the registry only imports the games' parts): the router, the overview, the
 * simulator and referee pages and the server reach a game through the registry only. The controller's half of
 * this boundary is test/rules/game-registry.test.ts.
 *
 * Strings are read with the TypeScript parser, so comments may name games and a template string is checked in
 * every piece of its text; import paths are not strings that decide anything (a type imported from
 * `controller/rules/<id>/` is data, not a branch) and are left out.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { GAME_IDS } from '../../controller/rules/games.ts';

const dashboard = path.resolve(import.meta.dirname, '../../dashboard');

/** What this test reads of a registered game (dashboard/web/games/game-ui.ts). */
interface RegisteredGame {
  readonly id: string;
  readonly title: string;
  readonly newGame: { readonly variants: readonly unknown[] };
}

interface GameParts {
  readonly page: unknown;
  readonly referee: unknown;
  readonly simulator: unknown;
}

interface Registry {
  readonly gameSummary: (id: string) => RegisteredGame | undefined;
  readonly gameUi: (id: string) => (RegisteredGame & GameParts) | undefined;
  readonly gameUis: () => readonly RegisteredGame[];
  readonly loadGameUi: (id: string) => Promise<unknown>;
  readonly loadAllGameUis: () => Promise<void>;
}

/**
 * The real registry, imported at run time by a computed path: a static import would make the Node typecheck
 * (`tsc -p .`) read the browser code, which it leaves to `tsc -p dashboard/web` (DOM types). Building the
 * registry needs no DOM: its games make their elements only when a page is mounted.
 */
async function registry(): Promise<Registry> {
  return await import(pathToFileURL(path.join(dashboard, 'web/games/registry.ts')).href) as never;
}

/** Every .ts file under `dir`, relative to dashboard/ with forward slashes. */
function tsFiles(dir: string): string[] {
  return readdirSync(path.join(dashboard, dir), { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith('.ts'))
    .map((e) => path.relative(dashboard, path.join(e.parentPath, e.name)).split(path.sep).join('/'));
}

/** The text of every string literal and template piece in a file, without its import and export paths. */
export function stringsOf(file: string, text: string): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  const out: string[] = [];
  const visit = (node: ts.Node): void => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier !== undefined) {
      // The path is skipped, the rest of the declaration (nothing with strings today) is not.
      node.forEachChild((child) => {
        if (child !== node.moduleSpecifier) visit(child);
      });
      return;
    }
    if (ts.isImportTypeNode(node)) return;
    // `import('./zip-zap/index.ts')`: a path too (the registry loads each game's chunk by it).
    if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) return;
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node) || ts.isTemplateHead(node)
      || ts.isTemplateMiddle(node) || ts.isTemplateTail(node)) out.push(node.text);
    node.forEachChild(visit);
  };
  visit(source);
  return out;
}

/** The files of `dir` (minus `allowed`) with a string that contains a game id, and the ids each names. */
function offenders(dir: string, allowed: (file: string) => boolean): Record<string, string[]> {
  const found: Record<string, string[]> = {};
  for (const file of tsFiles(dir)) {
    if (allowed(file)) continue;
    const strings = stringsOf(file, readFileSync(path.join(dashboard, file), 'utf8'));
    const ids = GAME_IDS.filter((id) => strings.some((s) => s.includes(id)));
    if (ids.length > 0) found[file] = ids;
  }
  return found;
}

/**
 * Server files that name a game on purpose, not to branch on it (none today: the server serves every game's
 * requests alike). Each entry says why.
 */
const SERVER_NAMES_A_GAME = new Set<string>([]);

describe('dashboard game registry', () => {
  it('has a GameUi for every game of the controller, under its own id, and none for an unknown game', async () => {
    const { gameSummary, gameUi, gameUis, loadGameUi, loadAllGameUis } = await registry();
    for (const id of GAME_IDS) {
      const summary = gameSummary(id);
      expect(summary?.id, id).toBe(id);
      expect(summary?.title, id).not.toBe('');
      expect(summary?.newGame.variants.length, id).toBeGreaterThan(0);
    }
    expect(gameUis().map((g) => g.id).sort()).toEqual([...GAME_IDS].sort());
    // The parts come with their chunk (`loadGameUi`), the summary's fields with them.
    await loadAllGameUis();
    for (const id of GAME_IDS) {
      const ui = gameUi(id);
      expect(ui?.id, id).toBe(id);
      expect([typeof ui?.page, typeof ui?.referee, typeof ui?.simulator], id).toEqual(['function', 'function', 'function']);
    }
    expect(gameSummary('chess')).toBeUndefined();
    expect(await loadGameUi('chess')).toBeUndefined();
    expect(gameUi('chess')).toBeUndefined();
  });

  it('has no game-id string in the browser code outside the games\' own folders (the registry included)', () => {
    const own = GAME_IDS.map((id) => `web/games/${id}/`);
    expect(offenders('web', (file) => own.some((prefix) => file.startsWith(prefix)))).toEqual({});
  });

  it('has no game-id string in the dashboard server', () => {
    const files = tsFiles('.').filter((file) => !file.startsWith('web/'));
    expect(files.length).toBeGreaterThan(0);
    expect(offenders('.', (file) => file.startsWith('web/') || SERVER_NAMES_A_GAME.has(file))).toEqual({});
  });

  it('reads game ids in every kind of string, and not in comments or import paths', () => {
    const text = [
      '// zip-zap in a comment',
      'import type { V } from \'../../controller/rules/zip-zap/view.ts\';',
      'const a = "zapp-zerapp";',
      'const b = `killer-21`;',
      'const c = `${a} and zip-zap ${b}`;',
      'const d = import(\'./zip-zap/index.ts\');',
    ].join('\n');
    expect(stringsOf('x.ts', text)).toEqual(['zapp-zerapp', 'killer-21', '', ' and zip-zap ', '']);
  });
});
