/**
 * The event log's rows read straight from the pages of the SQLite file, for when SQLite itself refuses the file
 * (a lost last page, a scribbled header, a truncated file: `sqlite3 .recover` fails on those too). Every page
 * is looked at on its own, so a row is found whenever the pages that hold it are intact, whatever happened to
 * the rest: the b-tree above it, the schema page, the header.
 *
 * The SQLite file format (https://www.sqlite.org/fileformat2.html), the parts used here:
 * - the header (100 bytes of page 1): page size at 16, reserved bytes per page at 20, first freelist trunk page
 *   at 32. When the header is damaged the page size comes from the WAL's header, else from whichever size makes
 *   the most pages parse as table leaves;
 * - a table b-tree leaf page (type 13): an 8-byte header (at 100 on page 1) with the cell count at 3, then one
 *   2-byte pointer per cell; a cell is varint payload size, varint rowid, the payload's first bytes and, when
 *   the payload spills, the 4-byte number of its first overflow page (each overflow page: 4-byte next page,
 *   then content);
 * - a record: varint header size, one varint serial type per column, then the values;
 * - the WAL (`<file>-wal`): a 32-byte header, then frames of a 24-byte header and one page; a frame counts when
 *   its salts match the header's and its checksum continues the chain, up to the last commit frame. Such
 *   frames replace the main file's pages, as SQLite would read them.
 *
 * Pages on the freelist (reachable from an intact header) are skipped: they hold deleted or moved rows. Each
 * leaf is assigned to one of the log's tables by the shape of its records (column count and types); a record
 * that does not fit, or whose JSON columns do not parse, is counted as undecodable rather than guessed at.
 */
import { existsSync, readFileSync } from 'node:fs';

/** The columns of each table, in schema order (schema.ts); a record may stop early (columns added later). */
export const LOG_TABLE_COLUMNS = {
  games: ['id', 'table_id', 'game', 'config', 'seed', 'started_at', 'ended_at', 'result'],
  log: ['seq', 'table_id', 'game_id', 'kind', 'at_wall_ms', 'host_us', 'payload', 'station', 'time_source', 'epoch',
    'raw_us', 'device_us', 'uncertainty_us', 'before_us', 'after_us'],
  snapshots: ['game_id', 'seq', 'action_count', 'state'],
  answers: ['key', 'table_id', 'at_wall_ms', 'response'],
  public_events: ['table_id', 'epoch', 'seq', 'at_wall_ms', 'payload'],
} as const;

export type LogTableName = keyof typeof LOG_TABLE_COLUMNS;
export type RawRow = Record<string, unknown>;

export interface PageReadResult {
  /** Rows per table, keyed by rowid (games.id, log.seq; the hidden rowid for snapshots and answers). */
  readonly tables: Readonly<Record<LogTableName, ReadonlyMap<number, RawRow>>>;
  /** Per table, records found on its pages that could not be decoded or did not pass the checks. */
  readonly undecodable: Readonly<Record<LogTableName, number>>;
  readonly pageSize: number;
  readonly pages: number;
  /** WAL frames applied over the main file's pages. */
  readonly walFrames: number;
}

type Value = number | string | Buffer | null;
const KINDS = new Set(['sensor', 'action', 'rejected', 'correction', 'system']);
const TABLE_LEAF = 13;

function varint(buf: Buffer, at: number, end: number): { value: number; next: number } | undefined {
  let value = 0n;
  for (let i = 0; i < 9; i++) {
    if (at + i >= end) return undefined;
    const byte = buf[at + i] ?? 0;
    if (i === 8) return { value: Number(BigInt.asIntN(64, (value << 8n) | BigInt(byte))), next: at + 9 };
    value = (value << 7n) | BigInt(byte & 0x7f);
    if ((byte & 0x80) === 0) return { value: Number(BigInt.asIntN(64, value)), next: at + i + 1 };
  }
  return undefined;
}

function serialSize(type: number): number {
  if (type >= 12) return Math.floor((type - 12) / 2);
  return [0, 1, 2, 3, 4, 6, 8, 8, 0, 0, -1, -1][type] ?? -1;
}

/** A record's values, or undefined when its header and body do not add up exactly. */
function decodeRecord(payload: Buffer): Value[] | undefined {
  const head = varint(payload, 0, payload.length);
  if (head === undefined || head.value < 1 || head.value > payload.length) return undefined;
  const types: number[] = [];
  let at = head.next;
  while (at < head.value) {
    const t = varint(payload, at, head.value);
    if (t === undefined || t.value < 0 || serialSize(t.value) < 0) return undefined;
    types.push(t.value);
    at = t.next;
  }
  let body = head.value;
  const values: Value[] = [];
  for (const type of types) {
    const size = serialSize(type);
    if (body + size > payload.length) return undefined;
    if (type === 0) values.push(null);
    else if (type === 8 || type === 9) values.push(type - 8);
    else if (type === 7) values.push(payload.readDoubleBE(body));
    else if (type < 7) values.push(Number(size === 8 ? payload.readBigInt64BE(body) : BigInt.asIntN(size * 8, BigInt(`0x${payload.toString('hex', body, body + size)}`))));
    else if (type % 2 === 1) values.push(payload.toString('utf8', body, body + size));
    else values.push(Buffer.from(payload.subarray(body, body + size)));
    body += size;
  }
  return body === payload.length ? values : undefined;
}

const isInt = (v: Value): boolean => typeof v === 'number' && Number.isInteger(v);
const isText = (v: Value): boolean => typeof v === 'string';
const isNum = (v: Value): boolean => typeof v === 'number';
const nullOr = (test: (v: Value) => boolean) => (v: Value): boolean => v === null || test(v);
function isJson(v: Value): boolean {
  if (typeof v !== 'string') return false;
  try {
    JSON.parse(v);
    return true;
  } catch {
    return false;
  }
}

/** Which table a record belongs to by its shape, with its row, or undefined. */
function classify(values: Value[], rowid: number): { table: LogTableName; row: RawRow } | undefined {
  const v = (i: number): Value => values[i] ?? null;
  const row = (table: LogTableName): { table: LogTableName; row: RawRow } => {
    const columns = LOG_TABLE_COLUMNS[table];
    const out: RawRow = {};
    columns.forEach((name, i) => {
      out[name] = v(i);
    });
    // games.id and log.seq are INTEGER PRIMARY KEY: the record holds NULL there and the rowid is the value.
    if (table === 'games' || table === 'log') out[columns[0]] = rowid;
    return { table, row: out };
  };
  if (values.length === 8 && v(0) === null && isText(v(1)) && isText(v(2)) && isJson(v(3)) && isJson(v(4)) && isInt(v(5))
    && nullOr(isInt)(v(6)) && (v(7) === null || isJson(v(7)))) return row('games');
  if (values.length >= 13 && values.length <= 15 && v(0) === null && isText(v(1)) && nullOr(isInt)(v(2))
    && KINDS.has(String(v(3))) && isInt(v(4)) && nullOr(isNum)(v(5)) && isJson(v(6))) return row('log');
  if (values.length === 4 && isInt(v(0)) && isInt(v(1)) && isInt(v(2)) && isJson(v(3))) return row('snapshots');
  if (values.length === 4 && isText(v(0)) && isText(v(1)) && isInt(v(2)) && isJson(v(3))) return row('answers');
  if (values.length === 5 && isText(v(0)) && isInt(v(1)) && isInt(v(2)) && isInt(v(3)) && isJson(v(4))) return row('public_events');
  return undefined;
}

/**
 * Whether a row read by SQLite from a damaged file still looks whole: its JSON columns parse. SQLite follows an
 * overflow chain without checking what the pages hold, so a zeroed or scribbled last overflow page comes back
 * as part of a value; the page reader applies the same checks to what it decodes.
 */
export function rowLooksWhole(table: LogTableName, row: RawRow): boolean {
  const json = (name: string, nullable = false): boolean => {
    const v = row[name] ?? null;
    return (nullable && v === null) || isJson(v as Value);
  };
  switch (table) {
    case 'games': return json('config') && json('seed') && json('result', true);
    case 'log': return KINDS.has(String(row.kind)) && json('payload');
    case 'snapshots': return json('state');
    case 'answers': return json('response');
    case 'public_events': return json('payload');
  }
}

interface Layout {
  readonly pageSize: number;
  readonly usable: number;
}

class Pages {
  constructor(private readonly main: Buffer, private readonly wal: ReadonlyMap<number, Buffer>, readonly layout: Layout,
    readonly count: number) {}

  /** How many bytes of page `n` the file really has (less than a page where it was cut short). */
  present(n: number): number {
    if (this.wal.has(n)) return this.layout.pageSize;
    return Math.max(0, Math.min(this.layout.pageSize, this.main.length - (n - 1) * this.layout.pageSize));
  }

  /** Page `n` (1-based), zero-filled where the file was cut short (see `present`); undefined past the end. */
  page(n: number): Buffer | undefined {
    const fromWal = this.wal.get(n);
    if (fromWal !== undefined) return fromWal;
    const size = this.layout.pageSize;
    const start = (n - 1) * size;
    if (n < 1 || start >= this.main.length) return undefined;
    const page = Buffer.alloc(size);
    this.main.copy(page, 0, start, Math.min(start + size, this.main.length));
    return page;
  }
}

/** The payload of the cell at `at` on a table leaf page, following its overflow chain. */
function cellPayload(pages: Pages, page: Buffer, at: number, present: number): { rowid: number; payload: Buffer } | undefined {
  const { usable } = pages.layout;
  const size = varint(page, at, usable);
  if (size === undefined || size.value <= 0 || size.value > 1 << 30) return undefined;
  const rowid = varint(page, size.next, usable);
  if (rowid === undefined) return undefined;
  const total = size.value;
  const maxLocal = usable - 35;
  let local = total;
  if (total > maxLocal) {
    const min = Math.floor(((usable - 12) * 32) / 255) - 23;
    const k = min + ((total - min) % (usable - 4));
    local = k <= maxLocal ? k : min;
  }
  const start = rowid.next;
  // Nothing is read from the zeros standing in for a cut-off part of a page: zeros decode as plausible numbers.
  if (start + local + (local < total ? 4 : 0) > Math.min(usable, present)) return undefined;
  const parts = [page.subarray(start, start + local)];
  let remaining = total - local;
  let next = local < total ? page.readUInt32BE(start + local) : 0;
  const seen = new Set<number>();
  while (remaining > 0) {
    if (next < 2 || next > pages.count || seen.has(next)) return undefined;
    seen.add(next);
    const overflow = pages.page(next);
    if (overflow === undefined) return undefined;
    const take = Math.min(remaining, usable - 4);
    if (4 + take > pages.present(next)) return undefined;
    parts.push(overflow.subarray(4, 4 + take));
    remaining -= take;
    next = overflow.readUInt32BE(0);
  }
  return { rowid: rowid.value, payload: Buffer.concat(parts) };
}

/** The cells of a table leaf page as records, or undefined when the page is not a well-formed table leaf. */
function leafRecords(pages: Pages, n: number): { rowid: number; values: Value[] | undefined }[] | undefined {
  const page = pages.page(n);
  if (page === undefined) return undefined;
  const { usable } = pages.layout;
  const h = n === 1 ? 100 : 0;
  if (page[h] !== TABLE_LEAF) return undefined;
  const cells = page.readUInt16BE(h + 3);
  const contentStart = page.readUInt16BE(h + 5) || 65536;
  const pointers = h + 8;
  const pointersEnd = pointers + 2 * cells;
  const end = Math.min(usable, pages.present(n));
  if (cells === 0 || pointersEnd > end || contentStart < pointersEnd || contentStart > usable) return undefined;
  const out: { rowid: number; values: Value[] | undefined }[] = [];
  for (let i = 0; i < cells; i++) {
    const at = page.readUInt16BE(pointers + 2 * i);
    if (at < contentStart || at >= usable) {
      out.push({ rowid: NaN, values: undefined });
      continue;
    }
    const cell = cellPayload(pages, page, at, pages.present(n));
    out.push(cell === undefined ? { rowid: NaN, values: undefined } : { rowid: cell.rowid, values: decodeRecord(cell.payload) });
  }
  return out;
}

function checksum(data: Buffer, from: number, to: number, big: boolean, s: [number, number]): [number, number] {
  let [s0, s1] = s;
  for (let i = from; i < to; i += 8) {
    const x0 = big ? data.readUInt32BE(i) : data.readUInt32LE(i);
    const x1 = big ? data.readUInt32BE(i + 4) : data.readUInt32LE(i + 4);
    s0 = (s0 + x0 + s1) >>> 0;
    s1 = (s1 + x1 + s0) >>> 0;
  }
  return [s0, s1];
}

/** The WAL's committed pages (newest version of each), or nothing when there is no valid WAL. */
function readWal(file: string): { pageSize: number; pages: Map<number, Buffer>; frames: number } | undefined {
  if (!existsSync(file)) return undefined;
  const wal = readFileSync(file);
  if (wal.length < 32) return undefined;
  const magic = wal.readUInt32BE(0);
  if (magic !== 0x377f0682 && magic !== 0x377f0683) return undefined;
  const big = magic === 0x377f0683;
  const pageSize = wal.readUInt32BE(8) === 1 ? 65536 : wal.readUInt32BE(8);
  if (pageSize < 512 || pageSize > 65536 || (pageSize & (pageSize - 1)) !== 0) return undefined;
  let sum = checksum(wal, 0, 24, big, [0, 0]);
  if (sum[0] !== wal.readUInt32BE(24) || sum[1] !== wal.readUInt32BE(28)) return undefined;
  const salt1 = wal.readUInt32BE(16);
  const salt2 = wal.readUInt32BE(20);
  const pending = new Map<number, Buffer>();
  const pages = new Map<number, Buffer>();
  let frames = 0;
  for (let at = 32; at + 24 + pageSize <= wal.length; at += 24 + pageSize) {
    if (wal.readUInt32BE(at + 8) !== salt1 || wal.readUInt32BE(at + 12) !== salt2) break;
    sum = checksum(wal, at, at + 8, big, sum);
    sum = checksum(wal, at + 24, at + 24 + pageSize, big, sum);
    if (sum[0] !== wal.readUInt32BE(at + 16) || sum[1] !== wal.readUInt32BE(at + 20)) break;
    pending.set(wal.readUInt32BE(at), Buffer.from(wal.subarray(at + 24, at + 24 + pageSize)));
    if (wal.readUInt32BE(at + 4) !== 0) {
      // A commit frame: everything up to here is part of the database.
      for (const [n, page] of pending) pages.set(n, page);
      frames += pending.size;
      pending.clear();
    }
  }
  return { pageSize, pages, frames };
}

function headerLayout(main: Buffer): Layout | undefined {
  if (main.length < 100 || main.toString('latin1', 0, 16) !== 'SQLite format 3\u0000') return undefined;
  const raw = main.readUInt16BE(16);
  const pageSize = raw === 1 ? 65536 : raw;
  const reserved = main[20] ?? 0;
  if (pageSize < 512 || (pageSize & (pageSize - 1)) !== 0 || reserved > 32) return undefined;
  return { pageSize, usable: pageSize - reserved };
}

/** The page size under which the most pages parse as table leaves with decodable records. */
function guessLayout(main: Buffer): Layout {
  let best: Layout = { pageSize: 4096, usable: 4096 };
  let bestScore = -1;
  for (let size = 512; size <= 65536; size *= 2) {
    const layout = { pageSize: size, usable: size };
    const pages = new Pages(main, new Map(), layout, Math.ceil(main.length / size));
    let score = 0;
    for (let n = 2; n <= pages.count; n++) score += leafRecords(pages, n)?.filter((r) => r.values !== undefined).length ?? 0;
    if (score > bestScore) {
      best = layout;
      bestScore = score;
    }
  }
  return best;
}

/** Pages on the freelist, when the header still says where it starts. */
function freePages(pages: Pages, headerOk: boolean): Set<number> {
  const free = new Set<number>();
  const first = headerOk ? pages.page(1) : undefined;
  let trunk = first === undefined ? 0 : first.readUInt32BE(32);
  while (trunk >= 2 && trunk <= pages.count && !free.has(trunk)) {
    free.add(trunk);
    const page = pages.page(trunk);
    if (page === undefined) break;
    const leaves = page.readUInt32BE(4);
    for (let i = 0; i < leaves && 8 + 4 * i + 4 <= pages.layout.usable; i++) free.add(page.readUInt32BE(8 + 4 * i));
    trunk = page.readUInt32BE(0);
  }
  return free;
}

/** One empty map per table of the log. */
export function emptyTables(): Record<LogTableName, Map<number, RawRow>> {
  return { games: new Map(), log: new Map(), snapshots: new Map(), answers: new Map(), public_events: new Map() };
}

/** Reads every decodable row of the event log's tables from `file` (and `<file>-wal`), page by page. */
export function readLogPages(file: string): PageReadResult {
  const main = existsSync(file) ? readFileSync(file) : Buffer.alloc(0);
  const wal = readWal(`${file}-wal`);
  const header = headerLayout(main);
  const layout = header ?? (wal ? { pageSize: wal.pageSize, usable: wal.pageSize } : guessLayout(main));
  const walPages = wal?.pageSize === layout.pageSize ? wal.pages : new Map<number, Buffer>();
  const count = Math.max(Math.ceil(main.length / layout.pageSize), ...walPages.keys());
  const pages = new Pages(main, walPages, layout, count);
  const free = freePages(pages, header !== undefined);
  const tables = emptyTables();
  const undecodable: Record<LogTableName, number> = { games: 0, log: 0, snapshots: 0, answers: 0, public_events: 0 };
  for (let n = 1; n <= count; n++) {
    if (free.has(n)) continue;
    const records = leafRecords(pages, n);
    if (records === undefined) continue;
    const found = records.map((r) => (r.values === undefined ? undefined : classify(r.values, r.rowid)));
    // Every cell of a leaf belongs to one table: the one most of its records fit.
    const votes = new Map<LogTableName, number>();
    for (const f of found) if (f !== undefined) votes.set(f.table, (votes.get(f.table) ?? 0) + 1);
    const table = [...votes].sort((a, b) => b[1] - a[1])[0]?.[0];
    if (table === undefined) continue;
    for (const [i, f] of found.entries()) {
      const rowid = records[i]?.rowid ?? NaN;
      if (f?.table !== table || !Number.isSafeInteger(rowid)) {
        undecodable[table]++;
        continue;
      }
      const known = tables[table].get(rowid);
      // A game row exists twice only when an old copy survived on a page the freelist could not name: the
      // ended one is the later state (a game only ever changes by ending).
      if (known === undefined || (table === 'games' && known.ended_at === null)) tables[table].set(rowid, f.row);
    }
  }
  return { tables, undecodable, pageSize: layout.pageSize, pages: count, walFrames: wal?.frames ?? 0 };
}
