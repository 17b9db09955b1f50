/**
 * The key reference, generated from the schema: every key with its type, default and meaning. It is what
 * `zaptable config reference` prints and what docs/configuration.md embeds (a test keeps the two equal), so
 * the documentation cannot drift from the schema.
 */
import { ZaptableSchema } from './schema.ts';
import { asSchema, itemsOf, propertiesOf, type JsonSchema } from './schema-walk.ts';

export interface ReferenceRow {
  /** `mqtt.embedded.port`; list entries as `[]`: `tables[].seats[].station`. */
  readonly path: string;
  readonly type: string;
  readonly default: string;
  readonly description: string;
}

function typeText(schema: JsonSchema): string {
  if (Array.isArray(schema.enum)) return schema.enum.map((v) => (v === null ? 'null' : String(v))).join(' \\| ');
  if (Array.isArray(schema.anyOf)) return (schema.anyOf as JsonSchema[]).map(typeText).join(' \\| ');
  if (typeof schema.const === 'string') return schema.const;
  const items = itemsOf(schema);
  if (schema.type === 'array' && items) return `list of ${propertiesOf(items) ? 'mappings' : typeText(items)}`;
  const type = Array.isArray(schema.type) ? schema.type.map(String) : [typeof schema.type === 'string' ? schema.type : 'any'];
  return type.map((t) => (t === 'object' ? 'mapping' : t)).join(' \\| ');
}

function defaultText(schema: JsonSchema, required: boolean): string {
  const custom = schema['x-default-text'];
  if (typeof custom === 'string') return custom;
  if (schema.default !== undefined) {
    const isSection = typeof schema.default === 'object' && schema.default !== null && propertiesOf(schema) !== undefined;
    return isSection ? '(section)' : `\`${JSON.stringify(schema.default)}\``;
  }
  return required ? '**required**' : '—';
}

function rows(schema: JsonSchema, prefix: string): ReferenceRow[] {
  const props = propertiesOf(schema) ?? {};
  const required = new Set(Array.isArray(schema.required) ? schema.required.map(String) : []);
  return Object.entries(props).flatMap(([key, child]) => {
    const path = prefix === '' ? key : `${prefix}.${key}`;
    const secret = child['x-secret'] === true ? ' Secret: masked in output; may come from the environment.' : '';
    const description = (typeof child.description === 'string' ? child.description : '') + secret;
    const row: ReferenceRow = { path, type: typeText(child), default: defaultText(child, required.has(key)), description };
    const items = itemsOf(child);
    const nested = propertiesOf(child) ? rows(child, path) : items && propertiesOf(items) ? rows(items, `${path}[]`) : [];
    return [row, ...nested];
  });
}

/** Every key of the schema, parents before children, in schema order. */
export function referenceRows(): ReferenceRow[] {
  return rows(asSchema(ZaptableSchema), '');
}

const cell = (s: string): string => s.replace(/\n/g, ' ').replace(/(?<!\\)\|/g, '\\|');

/** The reference as Markdown: one table per top-level section. */
export function referenceMarkdown(): string {
  const out: string[] = [];
  for (const section of Object.keys(propertiesOf(asSchema(ZaptableSchema)) ?? {})) {
    out.push(`### \`${section}\``, '', '| key | type | default | meaning |', '|---|---|---|---|');
    for (const r of referenceRows().filter((row) => row.path === section || row.path.startsWith(`${section}.`) || row.path.startsWith(`${section}[]`))) {
      out.push(`| \`${r.path}\` | ${cell(r.type)} | ${cell(r.default)} | ${cell(r.description)} |`);
    }
    out.push('');
  }
  return out.join('\n').trimEnd();
}
