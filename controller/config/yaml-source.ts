/**
 * Parses the YAML file and remembers where each key is, so that an error can point at its line. Every syntax
 * error is reported (the parser recovers and goes on), each with its line and column.
 */
import { isMap, isPair, isScalar, isSeq, LineCounter, parseDocument, type Node } from 'yaml';
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

export function parseYaml(text: string): ParsedYaml {
  const lineCounter = new LineCounter();
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
  return { ok: true, value: doc.toJS() as unknown, locate };
}
