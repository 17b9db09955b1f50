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
//  - the Raspberry Pi files carry what raspberry-pi.md promises.
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
    [/^ExecStart=\S*npx .*zaptable start --config \/etc\/zaptable\/config\.yaml$/m, 'ExecStart=… npx zaptable start --config /etc/zaptable/config.yaml'],
    [/^WantedBy=multi-user\.target$/m, 'WantedBy=multi-user.target'],
  ];
  return want.filter(([re]) => !re.test(unit)).map(([, what]) => `missing ${what}`);
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

console.log(`${passed} passed, ${failed} failed`);
process.exitCode = failed === 0 ? 0 : 1;
