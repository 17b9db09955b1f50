/**
 * The host side of the zaptable line protocol codec (hardware/protocol.md): CRC-8 checksum, framing,
 * parsing and formatting of device lines and command lines. Pure functions over strings; no I/O.
 *
 * Both directions are here: the serial driver parses device lines and formats commands, and the simulated
 * table does the reverse, so simulated stations speak exactly what real ones do. Bad input is returned as a
 * {@link ProtocolError} value, never thrown. Lines are handled without their `\n` terminator (as
 * @serialport/parser-readline yields them); one trailing `\r` is tolerated on input and never produced.
 */
import { protocolError, type ProtocolError } from './errors.ts';
import {
  MAX_COMMAND_ID, MAX_LINE,
  type Command, type DeviceMessage, type EventMessage, type FaultDevice, type StationKind,
} from './messages.ts';

const U32_MAX = 0xffff_ffff;
const I32_MIN = -0x8000_0000;
const I32_MAX = 0x7fff_ffff;

/** CRC-8/SMBUS (poly 0x07, init 0, not reflected, no final xor) over the string's char codes (ASCII). */
export function crc8(text: string): number {
  let crc = 0;
  for (let i = 0; i < text.length; i++) {
    crc ^= text.charCodeAt(i) & 0xff;
    for (let bit = 0; bit < 8; bit++) crc = crc & 0x80 ? ((crc << 1) ^ 0x07) & 0xff : (crc << 1) & 0xff;
  }
  return crc;
}

function hex2(byte: number): string {
  return byte.toString(16).toUpperCase().padStart(2, '0');
}

/** Appends `*XX` (the payload's CRC-8 in uppercase hex) to a payload. */
export function frame(payload: string): string {
  return `${payload}*${hex2(crc8(payload))}`;
}

function utf8Length(text: string): number {
  let n = 0;
  for (const ch of text) {
    const cp = ch.codePointAt(0) ?? 0;
    n += cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
  }
  return n;
}

const HEX2 = /^[0-9A-F]{2}$/;

/**
 * Checks a line's frame in the protocol's fixed order: length, characters, `*XX` present, no `*` in the
 * payload, CRC. Returns the payload (the part before `*`) or the first fault.
 */
export function checkFrame(line: string): { readonly payload: string } | ProtocolError {
  const text = line.endsWith('\r') ? line.slice(0, -1) : line;
  const bytes = utf8Length(text);
  if (bytes > MAX_LINE) return protocolError('LINE_TOO_LONG', `${bytes} bytes, at most ${MAX_LINE}`);
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x20 || c > 0x7e) return protocolError('BAD_CHARACTER', `code ${c} at ${i}`);
  }
  const star = text.length - 3;
  if (star < 0 || text[star] !== '*' || !HEX2.test(text.slice(star + 1))) return protocolError('CHECKSUM_MISSING');
  const payload = text.slice(0, star);
  if (payload.includes('*')) return protocolError('BAD_CHARACTER', `* at ${payload.indexOf('*')}`);
  const given = Number.parseInt(text.slice(star + 1), 16);
  const actual = crc8(payload);
  if (given !== actual) return protocolError('CHECKSUM_MISMATCH', `got ${text.slice(star + 1)}, computed ${hex2(actual)}`);
  return { payload };
}

// ----------------------------------------------------------------------------------------------- numbers

const CANONICAL_U = /^(0|[1-9][0-9]*)$/;

type NumberResult = { readonly value: number } | { readonly fault: 'malformed' | 'too-big' };

/** Canonical unsigned decimal (no sign, no leading zeros) up to 2^32-1. */
function parseU32(text: string | undefined): NumberResult {
  if (text === undefined || !CANONICAL_U.test(text)) return { fault: 'malformed' };
  if (text.length > 10) return { fault: 'too-big' };
  const value = Number(text);
  return value > U32_MAX ? { fault: 'too-big' } : { value };
}

/** A field that must be a canonical number in [lo, hi]; malformed → BAD_ARGUMENT, outside → OUT_OF_RANGE. */
function argInRange(text: string | undefined, lo: number, hi: number, what: string): number | ProtocolError {
  const r = parseU32(text);
  if ('fault' in r) {
    return r.fault === 'malformed' ? protocolError('BAD_ARGUMENT', `${what} "${text ?? ''}"`) : protocolError('OUT_OF_RANGE', what);
  }
  if (r.value < lo || r.value > hi) return protocolError('OUT_OF_RANGE', `${what} ${r.value} not in ${lo}..${hi}`);
  return r.value;
}

/** Layout fields (command id, seq, device time): anything but a canonical number in range is BAD_SYNTAX. */
function layoutNumber(text: string | undefined, max: number): number | undefined {
  const r = parseU32(text);
  return 'value' in r && r.value <= max ? r.value : undefined;
}

/** Splits on single spaces; an empty token anywhere (leading, trailing or double space) is BAD_SYNTAX. */
function split(payload: string): string[] | ProtocolError {
  const tokens = payload.split(' ');
  return tokens.includes('') ? protocolError('BAD_SYNTAX', 'empty field (stray space or empty line)') : tokens;
}

const STATION_ID = /^[A-Za-z0-9._-]{1,16}$/;
const UID = /^(?:[0-9A-F]{8}|[0-9A-F]{14}|[0-9A-F]{20})$/;
const GRAMS = /^-?(0|[1-9][0-9]*)\.[0-9]$/;
const FW = /^(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)$/;
const FIELD_KEY = /^[a-z][a-z0-9_]*$/;
const FIELD_VALUE = /^[^=]+$/;

/** True for a valid station id: 1..16 characters of `[A-Za-z0-9._-]`. */
export function isValidStationId(id: string): boolean {
  return STATION_ID.test(id);
}

// ---------------------------------------------------------------------------------------- device lines

/** Decodes one line a station sent (without `\n`). */
export function parseDeviceLine(line: string): DeviceMessage | ProtocolError {
  const framed = checkFrame(line);
  if ('error' in framed) return framed;
  const tokens = split(framed.payload);
  if (!Array.isArray(tokens)) return tokens;
  const [first, ...rest] = tokens;
  const keyword = first ?? '';
  switch (keyword) {
    case 'ZT': return parseBanner(rest);
    case 'E': return parseEvent(rest);
    case 'ok': return parseOk(rest);
    case 'err': return parseErr(rest);
    default: return protocolError('UNKNOWN_KEYWORD', `line type "${keyword}"`);
  }
}

function keyValue(token: string | undefined, key: string): string | undefined {
  return token?.startsWith(`${key}=`) === true ? token.slice(key.length + 1) : undefined;
}

function parseBanner(args: readonly string[]): DeviceMessage | ProtocolError {
  const [fw, protoT, kindT, idT, bootT] = args;
  const proto = keyValue(protoT, 'proto');
  const kind = keyValue(kindT, 'kind');
  const station = keyValue(idT, 'id');
  const boot = keyValue(bootT, 'boot');
  if (args.length !== 5 || fw === undefined || proto === undefined || kind === undefined || station === undefined
    || boot === undefined) {
    return protocolError('BAD_ARGUMENT', 'banner is ZT <fw> proto= kind= id= boot=');
  }
  if (!FW.test(fw)) return protocolError('BAD_ARGUMENT', `firmware version "${fw}"`);
  if (kind !== 'seat' && kind !== 'pile') return protocolError('BAD_ARGUMENT', `station kind "${kind}"`);
  if (!STATION_ID.test(station)) return protocolError('BAD_ARGUMENT', `station id "${station}"`);
  const protoN = argInRange(proto, 0, U32_MAX, 'proto');
  if (typeof protoN !== 'number') return protoN;
  const bootN = argInRange(boot, 0, U32_MAX, 'boot');
  if (typeof bootN !== 'number') return bootN;
  return { type: 'banner', fw, proto: protoN, kind: kind satisfies StationKind, station, boot: bootN };
}

function parseEvent(args: readonly string[]): DeviceMessage | ProtocolError {
  const [seqT, tT, name, ...rest] = args;
  const seq = layoutNumber(seqT, U32_MAX);
  const t = layoutNumber(tT, U32_MAX);
  if (seq === undefined) return protocolError('BAD_SYNTAX', `sequence number "${seqT ?? ''}"`);
  if (t === undefined) return protocolError('BAD_SYNTAX', `device time "${tT ?? ''}"`);
  if (name === undefined) return protocolError('BAD_SYNTAX', 'event name missing');
  const base = { type: 'event', seq, t } as const;
  switch (name) {
    case 'TAG+':
    case 'TAG-': {
      // Protocol 2: `<uid> <window_us>`; protocol 1 (firmware 0.1–0.2): `<uid>` alone.
      const [uid, windowT] = rest;
      if (rest.length < 1 || rest.length > 2 || uid === undefined || !UID.test(uid)) {
        return protocolError('BAD_ARGUMENT', `${name} <uid: 4, 7 or 10 bytes in uppercase hex> <window_us>`);
      }
      if (windowT === undefined) return { ...base, event: name, uid };
      const windowUs = argInRange(windowT, 0, U32_MAX, 'window_us');
      return typeof windowUs === 'number' ? { ...base, event: name, uid, windowUs } : windowUs;
    }
    case 'W': {
      const [grams, flag] = rest;
      if (rest.length !== 2 || grams === undefined || !GRAMS.test(grams) || grams === '-0.0') {
        return protocolError('BAD_ARGUMENT', 'weight is W <grams with one decimal> <S|U>');
      }
      if (flag !== 'S' && flag !== 'U') return protocolError('BAD_ARGUMENT', `stability flag "${flag ?? ''}"`);
      const decigrams = Number(grams.replace('.', ''));
      if (decigrams < I32_MIN || decigrams > I32_MAX) return protocolError('OUT_OF_RANGE', `weight ${grams}`);
      return { ...base, event: 'W', grams: decigrams / 10, stable: flag === 'S' };
    }
    case 'BTN+':
    case 'BTN-':
    case 'SLAP':
      if (rest.length !== 0) return protocolError('BAD_ARGUMENT', `${name} takes no argument`);
      return { ...base, event: name };
    case 'FAULT+':
    case 'FAULT-': {
      const [device] = rest;
      if (rest.length !== 1 || (device !== 'rfid' && device !== 'scale')) return protocolError('BAD_ARGUMENT', `fault device "${device ?? ''}"`);
      return { ...base, event: name, device: device satisfies FaultDevice };
    }
    default:
      return protocolError('UNKNOWN_KEYWORD', `event "${name}"`);
  }
}

function parseOk(args: readonly string[]): DeviceMessage | ProtocolError {
  const [idT, ...rest] = args;
  const id = layoutNumber(idT, MAX_COMMAND_ID);
  if (id === undefined) return protocolError('BAD_SYNTAX', `command id "${idT ?? ''}"`);
  const fields: Record<string, string> = {};
  for (const token of rest) {
    const eq = token.indexOf('=');
    const key = token.slice(0, eq);
    const value = token.slice(eq + 1);
    if (eq < 0 || !FIELD_KEY.test(key) || !FIELD_VALUE.test(value)) return protocolError('BAD_ARGUMENT', `field "${token}"`);
    if (Object.hasOwn(fields, key)) return protocolError('BAD_ARGUMENT', `field "${key}" repeated`);
    fields[key] = value;
  }
  return { type: 'ok', id, fields };
}

function parseErr(args: readonly string[]): DeviceMessage | ProtocolError {
  const [idT, codeT] = args;
  const id = idT === '-' ? null : layoutNumber(idT, MAX_COMMAND_ID);
  if (id === undefined) return protocolError('BAD_SYNTAX', `command id "${idT ?? ''}"`);
  if (args.length !== 2) return protocolError('BAD_ARGUMENT', 'err is err <id|-> <code>');
  const code = argInRange(codeT, 1, 255, 'code');
  if (typeof code !== 'number') return code;
  return { type: 'err', id, code };
}

function formatDecigrams(grams: number): string {
  const dg = Math.round(grams * 10);
  const mag = Math.abs(dg);
  return `${dg < 0 ? '-' : ''}${Math.floor(mag / 10)}.${mag % 10}`;
}

function formatEvent(m: EventMessage): string {
  const head = `E ${m.seq} ${m.t} ${m.event}`;
  switch (m.event) {
    case 'TAG+':
    case 'TAG-': return m.windowUs === undefined ? `${head} ${m.uid}` : `${head} ${m.uid} ${m.windowUs}`;
    case 'W': return `${head} ${formatDecigrams(m.grams)} ${m.stable ? 'S' : 'U'}`;
    case 'BTN+':
    case 'BTN-':
    case 'SLAP': return head;
    case 'FAULT+':
    case 'FAULT-': return `${head} ${m.device}`;
  }
}

/** Formats a device line (for the simulated table), checksum included, without `\n`. */
export function formatDeviceLine(m: DeviceMessage): string {
  switch (m.type) {
    case 'banner': return frame(`ZT ${m.fw} proto=${m.proto} kind=${m.kind} id=${m.station} boot=${m.boot}`);
    case 'event': return frame(formatEvent(m));
    case 'ok': return frame([`ok ${m.id}`, ...Object.entries(m.fields).map(([k, v]) => `${k}=${v}`)].join(' '));
    case 'err': return frame(`err ${m.id ?? '-'} ${m.code}`);
  }
}

// --------------------------------------------------------------------------------------- command lines

/** A rejected command line, with the id the station echoes in its `err` reply (null: `err -`). */
export type CommandError = ProtocolError & { readonly id: number | null };

const NO_ARGS = new Set(['ping', 'info', 'tare', 'raw', 'scale']);

/**
 * Decodes one command line exactly as a station does (the simulated table answers with it), including
 * which id the `err` reply carries.
 */
export function parseCommandLine(line: string): Command | CommandError {
  const framed = checkFrame(line);
  if ('error' in framed) return { ...framed, id: null };
  const tokens = split(framed.payload);
  if (!Array.isArray(tokens)) return { ...tokens, id: null };
  const [idT, verb, ...args] = tokens;
  const id = layoutNumber(idT, MAX_COMMAND_ID);
  if (id === undefined) return { ...protocolError('BAD_SYNTAX', `command id "${idT ?? ''}"`), id: null };
  const result = parseVerb(id, verb, args);
  return 'error' in result ? { ...result, id } : result;
}

function parseVerb(id: number, verb: string | undefined, args: readonly string[]): Command | ProtocolError {
  if (verb === undefined) return protocolError('BAD_SYNTAX', 'command verb missing');
  const [a0, a1, a2, a3] = args;
  if (NO_ARGS.has(verb)) {
    if (args.length !== 0) return protocolError('BAD_ARGUMENT', `${verb} takes no argument`);
    return { id, verb: verb as 'ping' | 'info' | 'tare' | 'raw' | 'scale' };
  }
  switch (verb) {
    case 'lamp':
      if (args.length === 1 && a0 === 'on') return { id, verb: 'lamp-on' };
      if (args.length === 1 && a0 === 'off') return { id, verb: 'lamp-off' };
      if (args.length === 4 && a0 === 'blink') {
        // A malformed number is reported before an out-of-range one, whatever their order (as the firmware).
        const values = [
          argInRange(a1, 10, 60000, 'on_ms'), argInRange(a2, 10, 60000, 'off_ms'), argInRange(a3, 0, 65535, 'count'),
        ];
        const fault = values.find((v) => typeof v !== 'number' && v.error === 'BAD_ARGUMENT')
          ?? values.find((v) => typeof v !== 'number');
        if (fault !== undefined && typeof fault !== 'number') return fault;
        const [onMs, offMs, count] = values as number[];
        return { id, verb: 'lamp-blink', onMs: onMs ?? 0, offMs: offMs ?? 0, count: count ?? 0 };
      }
      return protocolError('BAD_ARGUMENT', 'lamp on | lamp off | lamp blink <on_ms> <off_ms> <count>');
    case 'calibrate': {
      if (args.length !== 1) return protocolError('BAD_ARGUMENT', 'calibrate <grams>');
      const grams = argInRange(a0, 1, 100000, 'grams');
      return typeof grams === 'number' ? { id, verb: 'calibrate', grams } : grams;
    }
    case 'id':
      if (args.length !== 2 || a0 !== 'set' || a1 === undefined || !STATION_ID.test(a1)) {
        return protocolError('BAD_ARGUMENT', 'id set <1..16 of A-Z a-z 0-9 . _ ->');
      }
      return { id, verb: 'id-set', station: a1 };
    case 'stream':
      if (args.length === 1 && a0 === 'on') return { id, verb: 'stream-on' };
      if (args.length === 1 && a0 === 'off') return { id, verb: 'stream-off' };
      return protocolError('BAD_ARGUMENT', 'stream on | stream off');
    default:
      return protocolError('UNKNOWN_KEYWORD', `command "${verb}"`);
  }
}

/** Formats a command line, checksum included, without `\n` (append it when writing to the port). */
export function formatCommand(cmd: Command): string {
  const body = ((): string => {
    switch (cmd.verb) {
      case 'ping':
      case 'info':
      case 'tare':
      case 'raw':
      case 'scale': return cmd.verb;
      case 'lamp-on': return 'lamp on';
      case 'lamp-off': return 'lamp off';
      case 'lamp-blink': return `lamp blink ${cmd.onMs} ${cmd.offMs} ${cmd.count}`;
      case 'calibrate': return `calibrate ${cmd.grams}`;
      case 'id-set': return `id set ${cmd.station}`;
      case 'stream-on': return 'stream on';
      case 'stream-off': return 'stream off';
    }
  })();
  return frame(`${cmd.id} ${body}`);
}
