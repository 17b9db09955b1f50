/**
 * Parses the YAML file and remembers where each key is, so that an error can point at its line. Every syntax
 * error is reported (the parser recovers and goes on), each with its line and column. Aliases are allowed (a
 * seat list written once and reused), but not one inside the node it names (`&a [*a]`: an endless value that
 * nothing could validate) nor more expansions than the yaml library's limit (an "alias bomb" of nested aliases
 * that would take the memory): both are CONFIG_SYNTAX at the alias, never a stack trace.
 */
import {
  isMap, isPair, isScalar, isSeq, LineCounter, parseDocument, visit, type Alias, type Document, type Node,
} from 'yaml';
import type { Checked } from '../kernel/result.ts';
import { configError, type ConfigError } from './errors.ts';

export interface Position {
  readonly line: number;
  readonly column: number;
}

export type ParsedYaml = Checked<{
  readonly value: unknown;
  readonly locate: (path: string) => Position | undefined;
}, ConfigError>;

/** The node under a key or index, and where the key (or item) starts. */
function child(node: unknown, segment: string): { node: unknown; offset: number | undefined } | undefined {
  if (isMap(node)) {
    const pair = node.items.find((p) => isPair(p) && isScalar(p.key) && String(p.key.value) === segment);
    if (!pair) return undefined;
    return { node: pair.value, offset: (pair.key as Node | null)?.range?.[0] };
  }
  if (isSeq(node) && /^\d+$/.test(segment)) {
    const item = node.items[Number(segment)] as Node | undefined;
    return item ? { node: item, offset: item.range?.[0] } : undefined;
  }
  return undefined;
}

/** Deeper than any configuration needs, far below what the yaml library's recursion can take. */
const MAX_FLOW_DEPTH = 64;
const MAX_BLOCK_COLUMN = 256;

/**
 * Where the text nests too deeply, found without recursion before the yaml library sees it: its parser and
 * `toJS` recurse once per level, and a stack that overflows there may take the process down (V8 can fail to
 * compile a regular expression that close to the limit, and that is fatal) instead of being an error. Flow
 * collections (`[[[…`) count their brackets outside quotes and comments; a block collection needs one more
 * column per level, so a line whose content starts past MAX_BLOCK_COLUMN is as deep as this reader goes.
 */
function tooDeep(text: string): { offset: number; message: string } | undefined {
  let depth = 0;
  let quote: '"' | '\'' | undefined;
  let lineStart = 0;
  let content = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '\n') {
      lineStart = i + 1;
      content = false;
      continue;
    }
    if (!content && c !== ' ' && c !== '-' && c !== '?' && c !== ':' && c !== '\t') {
      content = true;
      if (i - lineStart > MAX_BLOCK_COLUMN) return { offset: i, message: `the content starts past column ${MAX_BLOCK_COLUMN}: nested too deeply` };
    }
    if (quote !== undefined) {
      if (c === '\\' && quote === '"') i++;
      else if (c === quote) quote = undefined;
      continue;
    }
    // A quote opens a quoted scalar only where a scalar can start (not the apostrophe in `Ada's table`).
    if ((c === '"' || c === '\'') && (i === 0 || /[\s[{,:]/.test(text[i - 1] ?? ''))) quote = c;
    else if (c === '#' && (i === 0 || /\s/.test(text[i - 1] ?? ''))) {
      const end = text.indexOf('\n', i);
      i = (end < 0 ? text.length : end) - 1;
    } else if (c === '[' || c === '{') {
      if (++depth > MAX_FLOW_DEPTH) return { offset: i, message: `more than ${MAX_FLOW_DEPTH} nested [ ] or { }: nested too deeply` };
    } else if ((c === ']' || c === '}') && depth > 0) depth--;
  }
  return undefined;
}

export function parseYaml(text: string): ParsedYaml {
  const lineCounter = new LineCounter();
  const deep = tooDeep(text);
  if (deep !== undefined) {
    let line = 1;
    let from = 0;
    for (let i = text.indexOf('\n'); i >= 0 && i < deep.offset; i = text.indexOf('\n', i + 1)) {
      line++;
      from = i + 1;
    }
    return { ok: false, errors: [{ ...configError('CONFIG_SYNTAX', '', deep.message), line, column: deep.offset - from + 1 }] };
  }
  // uniqueKeys: a key written twice is an error, not "the last one wins" (that would hide a mistake).
  const doc = parseDocument(text, { lineCounter, uniqueKeys: true, prettyErrors: true });
  if (doc.errors.length > 0) {
    return {
      ok: false,
      errors: doc.errors.map((e) => {
        const pos = e.linePos?.[0];
        const message = (e.message.split('\n')[0] ?? e.message).replace(/ at line \d+, column \d+:?$/, '');
        return { ...configError('CONFIG_SYNTAX', '', message), ...(pos ? { line: pos.line, column: pos.col } : {}) };
      }),
    };
  }
  const at = (offset: number | undefined): Partial<Position> => {
    if (offset === undefined) return {};
    const { line, col } = lineCounter.linePos(offset);
    return { line, column: col };
  };
  const loop = selfReference(doc);
  if (loop !== undefined) {
    const message = `the alias *${loop.source} is inside the node &${loop.source} names: its value would never end`;
    return { ok: false, errors: [{ ...configError('CONFIG_SYNTAX', '', message), ...at(loop.range?.[0]) }] };
  }
  let value: unknown;
  try {
    value = doc.toJS();
  } catch (error) {
    // The yaml library refuses to expand more aliases than the document could reasonably hold (ReferenceError).
    const message = `the aliases expand to too much (${(error as Error).message.split('\n')[0] ?? ''})`;
    return { ok: false, errors: [{ ...configError('CONFIG_SYNTAX', '', message), ...at(firstAlias(doc)?.range?.[0]) }] };
  }
  const locate = (path: string): Position | undefined => {
    let node: unknown = doc.contents;
    let offset: number | undefined = (doc.contents as Node | null)?.range?.[0];
    for (const segment of path === '' ? [] : path.split('.')) {
      const next = child(node, segment);
      if (!next) break;
      node = next.node;
      offset = next.offset ?? offset;
    }
    if (offset === undefined) return undefined;
    const { line, col } = lineCounter.linePos(offset);
    return { line, column: col };
  };
  return { ok: true, value, locate };
}

/** The first alias that stands inside the very node its anchor names (directly or deeper), if any. */
function selfReference(doc: Document): Alias | undefined {
  let found: Alias | undefined;
  visit(doc, {
    Alias(_key, alias, path) {
      const source = alias.resolve(doc);
      if (source !== undefined && path.includes(source)) {
        found = alias;
        return visit.BREAK;
      }
      return undefined;
    },
  });
  return found;
}

function firstAlias(doc: Document): Alias | undefined {
  let found: Alias | undefined;
  visit(doc, {
    Alias(_key, alias) {
      found = alias;
      return visit.BREAK;
    },
  });
  return found;
}
