#!/usr/bin/env node
// Keeps the hardware documentation honest. No dependencies; run from anywhere:
//
//   node hardware/check-docs.mjs
//
// Checks that
//  - every pin of firmware/src/pins.h (ZT_PIN_TABLE) appears with the same numbers in wiring.md's pin table,
//    and as a labelled wire in the seat-station diagram (the pile-station diagram: exactly the pins both
//    stations use; the slap-sensor diagram: exactly SLAP);
//  - every SVG in hardware/diagrams/ is well-formed enough to render anywhere: starts with <svg, has xmlns
//    and a viewBox, balanced tags, valid entities, one root element;
//  - every relative link (and #anchor) in hardware/**/*.md points at something that exists;
//  - every framed protocol line quoted in hardware/*.md (`... *XX`) carries the right CRC-8;
//  - the examples in hardware/examples/ pass `node --check`;
//  - the Raspberry Pi files (unit, udev rules, journald cap, backup service and timer) carry what raspberry-pi.md
//    promises;
//  - every line of the bill of materials has a part identifier, a source and a dated price, and the totals are
//    the sums of its lines;
//  - the pad stack adds up: the figures computed from the BOM's layer table match its own figures table, every
//    dimension of the mechanical drawings (data-dim groups) matches its label, its drawn length at the drawing's
//    scale and the stack, and the text quotes the same heights;
//  - the buzzer-hub pin plans of docs/config-examples/ never put a button on a Firmata port with a lamp or the
//    piezo.
// Prints one line per check and `N passed, N failed` last; exits 1 when anything failed.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const HW = dirname(fileURLToPath(import.meta.url));
const ROOT = resolve(HW, '..');
const PINS_H = join(ROOT, 'firmware/src/pins.h');

let passed = 0;
let failed = 0;

/** Runs one check: `fn` returns a list of problems (empty = pass) or throws. */
function check(name, fn) {
  let problems;
  try {
    problems = fn();
  } catch (err) {
    problems = [err instanceof Error ? err.message : String(err)];
  }
  if (problems.length === 0) {
    passed++;
    console.log(`ok    ${name}`);
  } else {
    failed++;
    console.log(`FAIL  ${name}`);
    for (const p of problems) console.log(`        ${p}`);
  }
}

const read = (file) => readFileSync(file, 'utf8');
const rel = (file) => relative(ROOT, file);

function walk(dir, keep) {
  const out = [];
  for (const name of readdirSync(dir).sort()) {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) out.push(...walk(full, keep));
    else if (keep(name)) out.push(full);
  }
  return out;
}

// ------------------------------------------------------------------------------------------- pins.h

/** The rows of ZT_PIN_TABLE: { name, uno, mega, stations: 'SEAT' | 'BOTH' }. */
function readPins() {
  const text = read(PINS_H);
  const start = text.indexOf('#define ZT_PIN_TABLE(X)');
  if (start < 0) throw new Error(`${rel(PINS_H)}: no ZT_PIN_TABLE(X) macro`);
  // The macro runs over backslash-continued lines.
  const lines = [];
  for (const line of text.slice(start).split('\n')) {
    lines.push(line);
    if (!line.trimEnd().endsWith('\\')) break;
  }
  const pins = [];
  for (const m of lines.join('\n').matchAll(/X\(\s*(\w+)\s*,\s*(\d+)\s*,\s*(\d+)\s*,\s*ZT_(SEAT|BOTH)\s*\)/g)) {
    pins.push({ name: m[1], uno: Number(m[2]), mega: Number(m[3]), stations: m[4] });
  }
  if (pins.length === 0) throw new Error(`${rel(PINS_H)}: ZT_PIN_TABLE has no X(name, uno, mega, stations) rows`);
  return pins;
}

// ---------------------------------------------------------------------------------------- Markdown

/** Markdown table rows as arrays of trimmed cells (outer pipes dropped). */
function tableRows(markdown) {
  return markdown.split('\n')
    .filter((l) => l.trimStart().startsWith('|'))
    .map((l) => l.trim().replace(/^\|/, '').replace(/\|$/, '').split('|').map((c) => c.trim()));
}

/** The text with fenced code blocks blanked out (line count kept, so line numbers stay right). */
function withoutFences(markdown) {
  let inFence = false;
  return markdown.split('\n').map((line) => {
    if (/^\s*(```|~~~)/.test(line)) {
      inFence = !inFence;
      return '';
    }
    return inFence ? '' : line;
  }).join('\n');
}

/** The contents of fenced code blocks, line by line. */
function fencedLines(markdown) {
  const out = [];
  let inFence = false;
  for (const line of markdown.split('\n')) {
    if (/^\s*(```|~~~)/.test(line)) inFence = !inFence;
    else if (inFence) out.push(line);
  }
  return out;
}

/** GitHub's heading anchors of a Markdown file. */
function anchors(markdown) {
  const seen = new Map();
  const out = new Set();
  for (const line of withoutFences(markdown).split('\n')) {
    const m = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!m) continue;
    const base = m[1].replace(/\[([^\]]*)\]\([^)]*\)/g, '$1').toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '').replace(/\s/g, '-');
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n === 0 ? base : `${base}-${n}`);
  }
  return out;
}

/** Relative link targets of a Markdown file: [{ target, line }]. Code spans and fenced blocks are skipped. */
function links(markdown) {
  const out = [];
  withoutFences(markdown).split('\n').forEach((line, i) => {
    const plain = line.replace(/`[^`]*`/g, '');
    for (const m of plain.matchAll(/!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) {
      const target = m[1];
      if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // http:, https:, mailto:, file: ...
      out.push({ target, line: i + 1 });
    }
  });
  return out;
}

// --------------------------------------------------------------------------------------------- SVG

/**
 * A small XML tokenizer, enough to say whether a hand-written SVG is well-formed: tags balanced and
 * properly nested, attributes quoted, entities valid, exactly one root element. Returns
 * { problems, elements } where elements are { name, attrs, start, end, children[], text }.
 */
function parseXml(src) {
  const problems = [];
  const root = { name: '#document', attrs: {}, children: [], text: '' };
  const stack = [root];
  const lineOf = (pos) => src.slice(0, pos).split('\n').length;
  let i = 0;
  const checkEntities = (s, pos) => {
    for (const m of s.matchAll(/&([^;\s]*);?/g)) {
      if (!/^&(?:amp|lt|gt|quot|apos|#\d+|#x[0-9a-fA-F]+);$/.test(m[0])) {
        problems.push(`line ${lineOf(pos)}: bad entity or bare '&' (${m[0].slice(0, 12)})`);
      }
    }
  };
  while (i < src.length) {
    const lt = src.indexOf('<', i);
    const textEnd = lt < 0 ? src.length : lt;
    const text = src.slice(i, textEnd);
    if (text.trim() !== '') {
      if (stack.length === 1) problems.push(`line ${lineOf(i)}: text outside the root element`);
      checkEntities(text, i);
      if (text.includes('>')) problems.push(`line ${lineOf(i)}: stray '>' in text`);
      stack.at(-1).text += text;
    }
    if (lt < 0) break;
    if (src.startsWith('<!--', lt)) {
      const end = src.indexOf('-->', lt + 4);
      if (end < 0) {
        problems.push(`line ${lineOf(lt)}: comment never closed`);
        break;
      }
      if (src.slice(lt + 4, end).includes('--')) problems.push(`line ${lineOf(lt)}: '--' inside a comment`);
      i = end + 3;
      continue;
    }
    if (src.startsWith('<![CDATA[', lt)) {
      const end = src.indexOf(']]>', lt);
      if (end < 0) {
        problems.push(`line ${lineOf(lt)}: CDATA never closed`);
        break;
      }
      stack.at(-1).text += src.slice(lt + 9, end);
      i = end + 3;
      continue;
    }
    if (src.startsWith('<?', lt) || src.startsWith('<!', lt)) {
      const end = src.indexOf('>', lt);
      i = end < 0 ? src.length : end + 1;
      continue;
    }
    // A tag: find its end outside quoted attribute values.
    let j = lt + 1;
    let quote = null;
    while (j < src.length && (quote || src[j] !== '>')) {
      if (quote && src[j] === quote) quote = null;
      else if (!quote && (src[j] === '"' || src[j] === '\'')) quote = src[j];
      else if (!quote && src[j] === '<') break;
      j++;
    }
    if (j >= src.length || src[j] !== '>') {
      problems.push(`line ${lineOf(lt)}: tag never closed`);
      i = j;
      continue;
    }
    const body = src.slice(lt + 1, j);
    i = j + 1;
    if (body.startsWith('/')) {
      const name = body.slice(1).trim();
      const open = stack.at(-1);
      if (stack.length === 1) problems.push(`line ${lineOf(lt)}: </${name}> closes nothing`);
      else if (open.name !== name) problems.push(`line ${lineOf(lt)}: </${name}> closes <${open.name}>`);
      else stack.pop();
      continue;
    }
    const selfClosing = body.endsWith('/');
    const inner = selfClosing ? body.slice(0, -1) : body;
    const nameMatch = /^([A-Za-z_][\w:.-]*)/.exec(inner);
    if (!nameMatch) {
      problems.push(`line ${lineOf(lt)}: bad tag <${body.slice(0, 20)}>`);
      continue;
    }
    const el = { name: nameMatch[1], attrs: {}, children: [], text: '' };
    const rest = inner.slice(nameMatch[1].length);
    const attrRe = /\s+([A-Za-z_][\w:.-]*)\s*=\s*("([^"]*)"|'([^']*)')/gy;
    let pos = 0;
    for (;;) {
      attrRe.lastIndex = pos;
      const m = attrRe.exec(rest);
      if (!m) break;
      if (m[1] in el.attrs) problems.push(`line ${lineOf(lt)}: attribute ${m[1]} twice on <${el.name}>`);
      const value = m[3] ?? m[4] ?? '';
      if (value.includes('<')) problems.push(`line ${lineOf(lt)}: '<' in attribute ${m[1]}`);
      checkEntities(value, lt);
      el.attrs[m[1]] = value;
      pos = attrRe.lastIndex;
    }
    if (rest.slice(pos).trim() !== '') {
      problems.push(`line ${lineOf(lt)}: unquoted or malformed attributes in <${el.name}>: ${rest.slice(pos).trim().slice(0, 30)}`);
    }
    if (stack.length === 1 && root.children.length > 0) problems.push(`line ${lineOf(lt)}: a second root element <${el.name}>`);
    stack.at(-1).children.push(el);
    if (!selfClosing) stack.push(el);
  }
  for (const open of stack.slice(1)) problems.push(`<${open.name}> never closed`);
  return { problems, root };
}

function* elements(node) {
  for (const child of node.children) {
    yield child;
    yield* elements(child);
  }
}

/** All text inside an element (its own and its descendants'), entities decoded enough for comparison. */
function textOf(node) {
  return [node.text, ...node.children.map(textOf)].join(' ').replace(/&amp;/g, '&').replace(/\s+/g, ' ').trim();
}

/** The data-signal groups of a diagram: Map name → { pin, texts }. */
function signalGroups(root) {
  const out = new Map();
  for (const el of elements(root)) {
    if (el.name !== 'g' || !('data-signal' in el.attrs)) continue;
    const texts = [...elements(el)].filter((e) => e.name === 'text').map(textOf);
    out.set(el.attrs['data-signal'], { pin: el.attrs['data-pin'], texts });
  }
  return out;
}

// ------------------------------------------------------------------------------------------ CRC-8

/** CRC-8/SMBUS (poly 0x07, init 0), as hardware/protocol.md defines it. */
function crc8(text) {
  let crc = 0;
  for (let i = 0; i < text.length; i++) {
    crc ^= text.charCodeAt(i) & 0xff;
    for (let bit = 0; bit < 8; bit++) crc = crc & 0x80 ? ((crc << 1) ^ 0x07) & 0xff : (crc << 1) & 0xff;
  }
  return crc;
}

// ========================================================================================== checks

let pins = [];
check(`${rel(PINS_H)} has a pin table`, () => {
  pins = readPins();
  return [];
});

const wiringPath = join(HW, 'wiring.md');
const wiring = existsSync(wiringPath) ? read(wiringPath) : '';
const wiringRows = tableRows(wiring);
const pinName = (cell) => /^`([A-Z][A-Z0-9_]*)`$/.exec(cell)?.[1];

for (const pin of pins) {
  check(`wiring.md: ${pin.name} is D${pin.uno} (Uno/Nano), D${pin.mega} (Mega)`, () => {
    const rows = wiringRows.filter((cells) => pinName(cells[0] ?? '') === pin.name);
    if (rows.length === 0) return [`no pin-table row for \`${pin.name}\` in hardware/wiring.md`];
    return rows.flatMap((cells) => {
      const problems = [];
      if (cells[1] !== `D${pin.uno}`) problems.push(`Uno/Nano column says ${cells[1]}, pins.h says D${pin.uno}`);
      if (cells[2] !== `D${pin.mega}`) problems.push(`Mega column says ${cells[2]}, pins.h says D${pin.mega}`);
      return problems;
    });
  });
}
check('wiring.md: its pin table names no pin that pins.h lacks', () => {
  const known = new Set(pins.map((p) => p.name));
  return wiringRows.map((cells) => pinName(cells[0] ?? ''))
    .filter((name) => name !== undefined && /_|^[A-Z]+$/.test(name) && !known.has(name))
    .map((name) => `\`${name}\` is in wiring.md's table but not in pins.h`);
});

const diagrams = join(HW, 'diagrams');
const svgFiles = existsSync(diagrams) ? walk(diagrams, (n) => n.endsWith('.svg')) : [];
const parsed = new Map();
for (const required of ['seat-station.svg', 'pile-station.svg', 'slap-sensor.svg', 'buzzer-hub.svg', 'table-overview.svg']) {
  check(`diagrams/${required} exists`, () => (existsSync(join(diagrams, required)) ? [] : ['missing']));
}
for (const file of svgFiles) {
  check(`${rel(file)} is well-formed SVG`, () => {
    const src = read(file);
    const problems = [];
    if (!/^\s*(<\?xml[^>]*\?>\s*)?<svg[\s>]/.test(src)) problems.push('does not start with <svg');
    const { problems: xml, root } = parseXml(src);
    problems.push(...xml);
    const svg = root.children[0];
    if (!svg || svg.name !== 'svg') problems.push('the root element is not <svg>');
    else {
      if (svg.attrs.xmlns !== 'http://www.w3.org/2000/svg') problems.push('no xmlns="http://www.w3.org/2000/svg" on <svg>');
      const vb = (svg.attrs.viewBox ?? '').trim().split(/[\s,]+/).map(Number);
      if (vb.length !== 4 || vb.some((n) => !Number.isFinite(n)) || vb[2] <= 0 || vb[3] <= 0) {
        problems.push(`no usable viewBox (got "${svg.attrs.viewBox ?? ''}")`);
      }
    }
    parsed.set(file, root);
    return problems;
  });
}

function checkDiagramPins(file, wanted) {
  const root = parsed.get(file);
  if (!root) return [`${rel(file)} missing or unreadable`];
  const groups = signalGroups(root);
  const problems = [];
  for (const pin of wanted) {
    const g = groups.get(pin.name);
    const label = `D${pin.uno}`;
    if (!g) {
      problems.push(`no <g data-signal="${pin.name}"> wire`);
      continue;
    }
    if (g.pin !== label) problems.push(`${pin.name}: data-pin="${g.pin}", pins.h says ${label}`);
    if (!g.texts.some((t) => t.split(/[\s()]+/).includes(pin.name))) problems.push(`${pin.name}: no label with the signal name`);
    if (!g.texts.some((t) => t === label)) problems.push(`${pin.name}: no board-pin label "${label}" on its wire`);
  }
  const names = new Set(wanted.map((p) => p.name));
  for (const name of groups.keys()) if (!names.has(name)) problems.push(`wire for ${name}, which this station does not use`);
  return problems;
}
check('diagrams/seat-station.svg: every pins.h signal wired to its pin', () =>
  checkDiagramPins(join(diagrams, 'seat-station.svg'), pins));
check('diagrams/pile-station.svg: exactly the signals of both stations (BOTH rows: reader, slap sensor)', () =>
  checkDiagramPins(join(diagrams, 'pile-station.svg'), pins.filter((p) => p.stations === 'BOTH')));
check('diagrams/slap-sensor.svg: exactly the SLAP signal, on its pin', () =>
  checkDiagramPins(join(diagrams, 'slap-sensor.svg'), pins.filter((p) => p.name === 'SLAP')));

const mdFiles = walk(HW, (n) => n.endsWith('.md'));
for (const file of mdFiles) {
  check(`${rel(file)}: relative links resolve`, () => {
    const problems = [];
    for (const { target, line } of links(read(file))) {
      const [path, frag] = target.split('#');
      const dest = path === '' ? file : resolve(dirname(file), decodeURIComponent(path));
      if (!existsSync(dest)) {
        problems.push(`line ${line}: ${target} → ${rel(dest)} does not exist`);
        continue;
      }
      if (frag && dest.endsWith('.md') && !anchors(read(dest)).has(frag.toLowerCase())) {
        problems.push(`line ${line}: ${target} → no heading #${frag} in ${rel(dest)}`);
      }
    }
    return problems;
  });
}

check('hardware/*.md: quoted protocol lines carry the right CRC-8', () => {
  const problems = [];
  let seen = 0;
  for (const file of mdFiles) {
    const text = read(file);
    // Quoted lines: in code blocks (arrows and comments may follow a line) and in `code spans`.
    const candidates = [
      ...fencedLines(text).flatMap((line) => line.split(/\s{2,}|→/)),
      ...[...withoutFences(text).matchAll(/`([^`]+)`/g)].map((m) => m[1]),
    ];
    for (const part of candidates) {
      const m = /^\s*((?:ZT|E|ok|err|\d+) [^*`]*)\*([0-9A-F]{2})\s*$/.exec(part);
      if (!m) continue;
      seen++;
      const want = crc8(m[1]).toString(16).toUpperCase().padStart(2, '0');
      if (want !== m[2]) problems.push(`${rel(file)}: "${m[1]}*${m[2]}" should end in *${want}`);
    }
  }
  if (seen === 0) problems.push('no framed lines found at all: has the quoting changed?');
  return problems;
});

const examples = join(HW, 'examples');
const exampleFiles = existsSync(examples) ? walk(examples, (n) => /\.(mjs|js|cjs)$/.test(n)) : [];
check('hardware/examples/ holds the example scripts', () =>
  ['buzzer-button.mjs', 'lamp.mjs', 'piezo.mjs'].filter((n) => !existsSync(join(examples, n))).map((n) => `missing ${n}`));
for (const file of exampleFiles) {
  check(`${rel(file)} passes node --check`, () => {
    const r = spawnSync(process.execPath, ['--check', file], { encoding: 'utf8' });
    return r.status === 0 ? [] : [(r.stderr || r.stdout || `exit ${r.status}`).trim().split('\n').slice(0, 5).join(' | ')];
  });
}

check('pi/zaptable.service: the unit raspberry-pi.md describes', () => {
  const unit = read(join(HW, 'pi/zaptable.service'));
  const want = [
    [/^\[Unit\]$/m, '[Unit] section'], [/^\[Service\]$/m, '[Service] section'], [/^\[Install\]$/m, '[Install] section'],
    [/^After=.*\bnetwork-online\.target\b/m, 'After=network-online.target'],
    [/^User=zaptable$/m, 'User=zaptable'], [/^SupplementaryGroups=.*\bdialout\b/m, 'SupplementaryGroups=dialout'],
    [/^WorkingDirectory=\//m, 'WorkingDirectory='], [/^Restart=always$/m, 'Restart=always'],
    [/^ExecStart=\/usr\/bin\/node --optimize-for-size --single-threaded --no-opt bin\/zaptable\.mjs start --config \/etc\/zaptable\/config\.yaml$/m, 'ExecStart=/usr/bin/node --optimize-for-size --single-threaded --no-opt bin/zaptable.mjs start --config /etc/zaptable/config.yaml (node itself: npx keeps npm\'s process beside it; the flags of controller/app/node-flags.ts)'],
    [/^WantedBy=multi-user\.target$/m, 'WantedBy=multi-user.target'],
  ];
  return want.filter(([re]) => !re.test(unit)).map(([, what]) => `missing ${what}`);
});

check('pi/journald-zaptable.conf, pi/zaptable-backup.*: the cap, the backup and the archive raspberry-pi.md describes', () => {
  const problems = [];
  const want = (file, checks) => {
    const path = join(HW, 'pi', file);
    if (!existsSync(path)) {
      problems.push(`missing pi/${file}`);
      return;
    }
    const text = read(path);
    for (const [test, what] of checks) if (!(typeof test === 'function' ? test(text) : test.test(text))) problems.push(`pi/${file}: ${what}`);
  };
  want('journald-zaptable.conf', [
    [/^\[Journal\]$/m, 'missing [Journal]'], [/^SystemMaxUse=\d+[KMG]$/m, 'missing SystemMaxUse='], [/^MaxRetentionSec=\S+$/m, 'missing MaxRetentionSec='],
  ]);
  want('zaptable-backup.service', [
    [/^\[Service\]$/m, 'missing [Service]'], [/^Type=oneshot$/m, 'missing Type=oneshot'], [/^User=zaptable$/m, 'missing User=zaptable'],
    [/^ExecStart=.*zaptable log backup (?:"[^"]+"|\S+) --db \/var\/lib\/zaptable\/zaptable\.db'?$/m,
      'missing ExecStart=… zaptable log backup TARGET --db /var/lib/zaptable/zaptable.db'],
    [/^ExecStart=.*zaptable log archive --older-than \d+ --db \/var\/lib\/zaptable\/zaptable\.db'?$/m,
      'missing ExecStart=… zaptable log archive --older-than DAYS --db /var/lib/zaptable/zaptable.db'],
    [/^ReadWritePaths=\/var\/lib\/zaptable$/m, 'missing ReadWritePaths=/var/lib/zaptable'],
    // systemd expands % and $ in ExecStart itself: a shell's date format and $(…) need them doubled.
    [(text) => !/%[a-zA-Z]/.test(text.replace(/%%/g, '')), 'a single % in ExecStart: systemd reads it as a specifier (write %%)'],
    [(text) => !/(?<!\$)\$\(/.test(text.replace(/\$\$/g, '')), 'a single $( in ExecStart: systemd needs $$('],
  ]);
  want('zaptable-backup.timer', [
    [/^\[Timer\]$/m, 'missing [Timer]'], [/^OnCalendar=\S/m, 'missing OnCalendar='], [/^Persistent=true$/m, 'missing Persistent=true'],
    [/^WantedBy=timers\.target$/m, 'missing WantedBy=timers.target'],
  ]);
  const pi = existsSync(join(HW, 'raspberry-pi.md')) ? read(join(HW, 'raspberry-pi.md')) : '';
  for (const file of ['journald-zaptable.conf', 'zaptable-backup.service', 'zaptable-backup.timer']) {
    if (!pi.includes(`pi/${file}`)) problems.push(`raspberry-pi.md does not mention pi/${file}`);
  }
  return problems;
});

check('pi/99-zaptable.rules: one rule per line, the usual USB-serial chips covered', () => {
  const rules = read(join(HW, 'pi/99-zaptable.rules'));
  const problems = [];
  rules.split('\n').forEach((line, i) => {
    if (line.trim() === '' || line.trimStart().startsWith('#')) return;
    if (line.trimEnd().endsWith('\\')) return; // continued: checked with the next line
    const key = /^(SUBSYSTEM|ACTION|KERNEL|SUBSYSTEMS|ATTRS|ATTR|ENV|DRIVERS|IMPORT|LABEL|GOTO)\b/;
    if (!key.test(line.trimStart()) && !/^\s/.test(line)) {
      problems.push(`line ${i + 1}: does not look like a udev rule`);
    }
    const quotes = (line.match(/"/g) ?? []).length;
    if (quotes % 2 !== 0) problems.push(`line ${i + 1}: unbalanced quotes`);
  });
  for (const vendor of ['1a86', '0403', '2341', '2a03']) {
    if (!new RegExp(`ATTRS\\{idVendor\\}=="${vendor}"`).test(rules)) problems.push(`no rule for USB vendor ${vendor}`);
  }
  return problems;
});

// ================================================================================ bill of materials

const bomPath = join(HW, 'bill-of-materials.md');
const bom = existsSync(bomPath) ? read(bomPath) : '';

/** The parts tables of the BOM: rows of { ref, part, id, distributor, hobby, price, q4, q6, table }. */
function bomTables(markdown) {
  const out = [];
  let table = null;
  for (const line of markdown.split('\n')) {
    if (!line.trimStart().startsWith('|')) {
      table = null;
      continue;
    }
    const cells = line.trim().replace(/^\|/, '').replace(/\|$/, '').split('|').map((c) => c.trim());
    if (table === null) {
      table = cells.includes('Part number or exact spec') ? { header: cells, rows: [] } : { header: cells, rows: null };
      if (table.rows !== null) out.push(table);
      continue;
    }
    if (table.rows === null || /^-+$/.test(cells[0] ?? '')) continue;
    table.rows.push(cells);
  }
  return out;
}

const PRICE = /^€(\d+\.\d\d) \((?:approx\., )?(\d{4}-\d{2})\)$/;
const isSource = (cell) => cell !== undefined && cell.replace(/[–—-]/g, '').trim() !== '';
const euroCents = (text) => Math.round(Number(text) * 100);
const euros = (cents) => `€${(cents / 100).toFixed(2)}`;

const bomParts = bomTables(bom);
check('bill-of-materials.md: every line has a part identifier, a source and a dated price in EUR', () => {
  const problems = [];
  if (bomParts.length < 2) problems.push('expected the parts table and the buzzer-hub table ("Part number or exact spec" columns)');
  const refs = new Set();
  for (const { header, rows } of bomParts) {
    const col = (name) => header.indexOf(name);
    for (const cells of rows) {
      const ref = cells[0] ?? '';
      const at = `line ${ref || '?'}`;
      if (!/^[A-Z]\d+$/.test(ref)) problems.push(`${at}: no ref (S1, P2 …)`);
      if (refs.has(ref)) problems.push(`${at}: ref used twice`);
      refs.add(ref);
      const id = cells[col('Part number or exact spec')] ?? '';
      if (id.length < 8 || !(/\*\*[^*]+\*\*/.test(id) || /\d/.test(id))) problems.push(`${at}: the identifier "${id}" names no part number (bold) and no exact spec (numbers)`);
      if (!isSource(cells[col('Distributor')]) && !isSource(cells[col('Hobby shop')])) problems.push(`${at}: no source`);
      const price = cells[col('Unit price (EUR)')] ?? '';
      if (!PRICE.test(price)) problems.push(`${at}: price "${price}" is not "€N.NN (approx., YYYY-MM)"`);
      for (const q of cells.slice(col('Unit price (EUR)') + 1, col('Unit price (EUR)') + 3)) {
        if (!/^\d+$/.test(q)) problems.push(`${at}: quantity "${q}" is not a whole number`);
      }
    }
  }
  return problems;
});

check('bill-of-materials.md: the totals are the sums of the lines', () => {
  const [table, hub] = bomParts;
  if (table === undefined || hub === undefined) return ['no parts tables'];
  const sum = ({ header, rows }, k) => rows.reduce((acc, cells) => {
    const i = header.indexOf('Unit price (EUR)');
    const m = PRICE.exec(cells[i] ?? '');
    return acc + (m === null ? NaN : euroCents(m[1]) * Number(cells[i + 1 + k]));
  }, 0);
  const want = {
    table: [sum(table, 0), sum(table, 1)],
    hub: [sum(hub, 0), sum(hub, 1)],
  };
  want.all = [want.table[0] + want.hub[0], want.table[1] + want.hub[1]];
  const totals = tableRows(bom).filter((c) => /^(\*\*)?(Table|Buzzer hub)/.test(c[0] ?? '') && /€/.test(c[1] ?? ''));
  const problems = [];
  const find = (re) => totals.find((c) => re.test(c[0]));
  const rowsWanted = [['table', /^Table \(/], ['hub', /^Buzzer hub/], ['all', /^\*\*Table with/]];
  for (const [key, re] of rowsWanted) {
    const row = find(re);
    if (row === undefined) {
      problems.push(`no totals row for ${key}`);
      continue;
    }
    [0, 1].forEach((k) => {
      const stated = euroCents((row[k + 1] ?? '').replace(/[*€]/g, ''));
      if (stated !== want[key][k]) problems.push(`${row[0].replace(/\*/g, '')}, ${k === 0 ? '4' : '6'}-seat: says ${euros(stated)}, the lines add up to ${euros(want[key][k])}`);
    });
  }
  return problems;
});

// ------------------------------------------------------------------------------------- pad stack

/** The stack's layers and figures: Map key → { mm, formula? } from the BOM's two tables with `key` cells. */
function stackTables(markdown) {
  const values = new Map();
  const formulas = [];
  for (const cells of tableRows(markdown)) {
    const key = /^`([a-z][a-z-]*)`/.exec(cells[0] ?? '')?.[1];
    if (key === undefined || !/^\d+(\.\d+)?$/.test(cells[1] ?? '')) continue;
    values.set(key, Number(cells[1]));
    const formula = /^`([a-z +-]+)`$/.exec(cells[2] ?? '')?.[1];
    if (formula !== undefined) formulas.push({ key, formula });
  }
  return { values, formulas };
}

/** Evaluates "a + b - c" over known keys; throws on an unknown key. */
function evaluate(formula, values) {
  let total = 0;
  let sign = 1;
  for (const token of formula.split(/\s+/)) {
    if (token === '+') sign = 1;
    else if (token === '-') sign = -1;
    else {
      if (!values.has(token)) throw new Error(`"${token}" is not in the stack table`);
      total += sign * values.get(token);
    }
  }
  return Math.round(total * 10) / 10;
}

const stack = stackTables(bom);
check('bill-of-materials.md: the pad stack adds up (every figure recomputed from the layers)', () => {
  const problems = [];
  for (const key of ['base', 'spacer-lower', 'cell', 'spacer-upper', 'plate', 'felt', 'standoff', 'reader-pcb']) {
    if (!stack.values.has(key)) problems.push(`no layer \`${key}\``);
  }
  if (stack.formulas.length === 0) problems.push('no computed figures');
  for (const { key, formula } of stack.formulas) {
    const computed = evaluate(formula, stack.values);
    if (Math.abs(computed - stack.values.get(key)) > 0.05) problems.push(`\`${key}\` says ${stack.values.get(key)} mm, ${formula} = ${computed} mm`);
  }
  return problems;
});

/** Where a quoted dimension must agree with the stack: "N mm under the top plate" and <!--dim:key--> markers. */
check('hardware/*.md: heights quoted in the text agree with the pad stack', () => {
  const problems = [];
  const gap = stack.values.get('antenna-gap');
  if (gap === undefined) return ['no `antenna-gap` figure in bill-of-materials.md'];
  const agrees = (text, value) => {
    const decimals = (text.split('.')[1] ?? '').length;
    return Math.abs(Number(text) - value) <= 0.5 * 10 ** -decimals + 1e-9;
  };
  for (const file of mdFiles) {
    const text = withoutFences(read(file));
    for (const m of text.matchAll(/(\d+(?:\.\d+)?) mm under the top plate/g)) {
      if (!agrees(m[1], gap)) problems.push(`${rel(file)}: "${m[0]}", the stack puts the antenna ${gap} mm under it`);
    }
    for (const m of text.matchAll(/<!--\s*dim:([a-z-]+)\s*-->\s*(\d+(?:\.\d+)?) mm/g)) {
      const value = stack.values.get(m[1]);
      if (value === undefined) problems.push(`${rel(file)}: dim:${m[1]} is not in the stack table`);
      else if (!agrees(m[2], value)) problems.push(`${rel(file)}: ${m[1]} quoted as ${m[2]} mm, the stack says ${value} mm`);
    }
  }
  return problems;
});

// --------------------------------------------------------------------------- dimensioned drawings

const MECHANICAL = ['pad-side.svg', 'pad-top.svg', 'table-cutout.svg', 'station-enclosure.svg'];
for (const name of MECHANICAL) {
  check(`diagrams/${name}: every dimension matches its label, its drawn length and the stack`, () => {
    const root = parsed.get(join(diagrams, name));
    if (!root) return ['missing or unreadable'];
    const svg = root.children[0];
    const scale = Number(svg?.attrs['data-px-per-mm']);
    const problems = [];
    if (!(scale > 0)) problems.push('no data-px-per-mm on <svg> (the drawing\'s scale)');
    const dims = new Map();
    for (const el of elements(root)) {
      if (el.name !== 'g' || !('data-dim' in el.attrs)) continue;
      const key = el.attrs['data-dim'];
      const mm = Number(el.attrs['data-mm']);
      const where = `${key}`;
      if (!Number.isFinite(mm)) {
        problems.push(`${where}: no data-mm`);
        continue;
      }
      if (dims.has(key) && dims.get(key) !== mm) problems.push(`${where}: ${mm} here, ${dims.get(key)} elsewhere in the drawing`);
      dims.set(key, mm);
      const label = [...elements(el)].filter((e) => e.name === 'text').map(textOf).join(' ');
      const numbers = [...label.matchAll(/\d+(?:\.\d+)?/g)].map((m) => Number(m[0]));
      if (!numbers.includes(mm)) problems.push(`${where}: its label "${label}" does not say ${mm}`);
      const line = [...elements(el)].find((e) => e.name === 'line');
      if (line === undefined) problems.push(`${where}: no dimension line`);
      else if (scale > 0) {
        const [x1, y1, x2, y2] = ['x1', 'y1', 'x2', 'y2'].map((a) => Number(line.attrs[a]));
        const len = Math.hypot(x2 - x1, y2 - y1) / scale;
        if (Math.abs(len - mm) > Math.max(0.3, mm * 0.01)) problems.push(`${where}: drawn ${len.toFixed(1)} mm long at ${scale} px/mm, labelled ${mm} mm`);
      }
      const fromStack = stack.values.get(key);
      if (fromStack !== undefined && Math.abs(fromStack - mm) > 0.05) problems.push(`${where}: ${mm} mm, bill-of-materials.md's stack says ${fromStack} mm`);
    }
    for (const el of elements(root)) {
      if (el.name !== 'g' || !('data-sum' in el.attrs)) continue;
      const mm = Number(el.attrs['data-mm']);
      // "a b -c": a + b − c, over this drawing's dimensions and the stack's figures.
      const parts = el.attrs['data-sum'].trim().split(/\s+/);
      const key = (k) => k.replace(/^-/, '');
      const sign = (k) => (k.startsWith('-') ? -1 : 1);
      const missing = parts.filter((k) => !dims.has(key(k)) && !stack.values.has(key(k)));
      if (missing.length > 0) {
        problems.push(`${el.attrs['data-dim']}: data-sum names ${missing.join(', ')}, not dimensioned`);
        continue;
      }
      const value = (k) => sign(k) * (dims.get(key(k)) ?? stack.values.get(key(k)));
      const total = Math.round(parts.reduce((a, k) => a + value(k), 0) * 100) / 100;
      if (Math.abs(total - mm) > 0.05) problems.push(`${el.attrs['data-dim']}: ${mm} mm, but ${parts.join(' + ')} = ${total} mm`);
    }
    if (dims.size === 0) problems.push('no dimensions (<g data-dim="…" data-mm="…">)');
    return problems;
  });
}

// ------------------------------------------------------------------------ buzzer hub: Firmata ports

/**
 * StandardFirmata writes a digital output a port (8 pins) at a time, and reports inputs a port at a time. A
 * lamp or piezo write carries the host's idea of every other pin of that port: a button pin it still thinks is
 * 0 loses its pull-up on Firmata ≤ 2.4 (which makes pull-ups by writing 1 to an input), and the button then
 * reads "pressed" until the next write. Keeping buttons on ports without outputs rules that out on any Firmata.
 */
/** Button and output pins of one pin plan written as YAML or as the hub's options (pin/lamp/piezo[Pin] keys). */
function keyedPins(text) {
  const num = (v) => (/^A\d$/.test(v) ? 14 + Number(v.slice(1)) : Number(v));
  return {
    buttons: [...text.matchAll(/\bpin:\s*'?(A?\d+)/g)].map((m) => num(m[1])),
    outputs: [...text.matchAll(/\b(?:lamp|piezo|piezoPin):\s*'?(A?\d+)/g)].map((m) => num(m[1])),
  };
}

/** The `buzzerHub:` block of a YAML file (by indentation), or undefined. */
function hubBlock(yaml) {
  const start = yaml.search(/^\s*buzzerHub:/m);
  if (start < 0) return undefined;
  const lines = yaml.slice(start).split('\n');
  const indent = /^(\s*)/.exec(lines[0])[1].length;
  const body = [];
  for (const line of lines.slice(1)) {
    if (line.trim() !== '' && !line.trimStart().startsWith('#') && /^(\s*)/.exec(line)[1].length <= indent) break;
    body.push(line);
  }
  return body.join('\n');
}

/** Every hub pin plan the docs show: [{ where, buttons, outputs }]. */
function hubPlans() {
  const plans = [];
  const dir = join(ROOT, 'docs/config-examples');
  for (const file of existsSync(dir) ? walk(dir, (n) => /\.ya?ml$/.test(n)) : []) {
    const block = hubBlock(read(file));
    if (block !== undefined) plans.push({ where: rel(file), ...keyedPins(block) });
  }
  for (const file of [join(ROOT, 'docs/buzzer-hub.md'), join(HW, 'buzzer-hub.md')]) {
    if (!existsSync(file)) continue;
    const text = read(file);
    // Option objects in code blocks: `buttons: [{ id, pin, lamp }, …]` with an optional piezoPin.
    fencedLines(text).join('\n').split(/\n\s*\n/).forEach((block, i) => {
      if (!/buttons:\s*\[/.test(block)) return;
      plans.push({ where: `${rel(file)} (code block ${i + 1})`, ...keyedPins(block) });
    });
    // The pin-plan table: | n | Dbutton | Dlamp | and | piezo | Ax … |.
    const rows = tableRows(withoutFences(text)).filter((c) => /^(\d|piezo)/.test(c[0] ?? ''));
    const pin = (cell) => {
      const m = /^(D|A)(\d+)\b/.exec(cell ?? '');
      return m === null ? undefined : (m[1] === 'A' ? 14 : 0) + Number(m[2]);
    };
    const buttons = rows.filter((c) => /^\d/.test(c[0])).map((c) => pin(c[1])).filter((p) => p !== undefined);
    const outputs = rows.flatMap((c) => (/^\d/.test(c[0]) ? [pin(c[2])] : [pin(c[1])])).filter((p) => p !== undefined);
    if (buttons.length > 0) plans.push({ where: `${rel(file)} (pin-plan table)`, buttons, outputs });
  }
  return plans;
}

const plans = hubPlans();
check(`buzzer hub: no button shares a Firmata port with a lamp or the piezo (${plans.length} pin plans)`, () => {
  const problems = [];
  if (plans.length === 0) problems.push('no hub pin plan found in docs/ or hardware/buzzer-hub.md: has the format changed?');
  for (const { where, buttons, outputs } of plans) {
    const outPorts = new Map(outputs.map((p) => [p >> 3, p]));
    for (const b of buttons) {
      if (outPorts.has(b >> 3)) problems.push(`${where}: button pin ${b} and output pin ${outPorts.get(b >> 3)} share Firmata port ${b >> 3} (pins ${(b >> 3) * 8}–${(b >> 3) * 8 + 7})`);
    }
  }
  return problems;
});

console.log(`${passed} passed, ${failed} failed`);
process.exitCode = failed === 0 ? 0 : 1;
