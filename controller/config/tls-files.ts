/**
 * The broker TLS files (`mqtt.external.tls`, `mqtt.venue.tls`): read once at start-up, as PEM text, for every
 * connection to that broker (the controller's, its venue probe and link, the dashboard's). A file that cannot be
 * read is a configuration error (`TLS_FILE_UNREADABLE`, with the key and the file) found by `loadConfig`, so
 * that `zaptable start`, `zaptable dashboard` and `zaptable config check` say it before anything starts, rather
 * than a connection failing later with a TLS error that names no file.
 */
import { readFileSync } from 'node:fs';
import type { Checked, Rejection } from '../kernel/result.ts';
import { configError, type ConfigError } from './errors.ts';
import type { ZaptableConfig } from './schema.ts';

/** A `tls:` section as validated (paths already resolved against the config file's folder). */
export type TlsSection = ZaptableConfig['mqtt']['external']['tls'];

/** What a connection needs: the PEM text of each file given (mqtt.js and node:tls take it as is). */
export interface TlsPem {
  readonly ca?: string;
  readonly cert?: string;
  readonly key?: string;
  readonly rejectUnauthorized: boolean;
  /** The config key of the section (named in TLS error messages). */
  readonly source: TlsAt;
}

/** The two broker sections that carry TLS files, by the config path of their `tls:`. */
export type TlsAt = 'mqtt.external.tls' | 'mqtt.venue.tls';

export type TlsFileRejection = Rejection<'TLS_FILE_UNREADABLE'> & { readonly path: string; readonly file: string };

const FILES = ['ca', 'cert', 'key'] as const;

/** Reads one section's files. Fails on the first file that is missing, unreadable or not PEM. */
export function tlsOptionsOf(section: TlsSection, at: TlsAt): { readonly ok: true; readonly tls: TlsPem } | TlsFileRejection {
  const pem: { ca?: string; cert?: string; key?: string } = {};
  for (const key of FILES) {
    const file = section[key];
    if (file === undefined) continue;
    const path = `${at}.${key}`;
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch (error) {
      const e = error as NodeJS.ErrnoException;
      const why = e.code === 'ENOENT' ? 'no such file' : e.code === 'EACCES' ? 'permission denied' : e.code === 'EISDIR' ? 'is a directory' : e.message;
      return unreadable(path, file, `cannot read ${file}: ${why}`);
    }
    // A DER file or a wrong path (a .conf) would otherwise fail at the handshake in OpenSSL's words.
    if (!text.includes('-----BEGIN ')) return unreadable(path, file, `${file} is not a PEM file (no "-----BEGIN" line)`);
    pem[key] = text;
  }
  return { ok: true, tls: { ...pem, rejectUnauthorized: section.rejectUnauthorized, source: at } };
}

function unreadable(path: string, file: string, message: string): TlsFileRejection {
  return { ok: false, code: 'TLS_FILE_UNREADABLE', message, path, file };
}

/** The TLS of the external broker (`broker: external`) and of the venue link (`mqtt.venue.url` set). */
export interface BrokerTls {
  readonly external?: TlsPem;
  readonly venue?: TlsPem;
}

/** The sections this configuration connects with: a section of a broker it does not use is not read. */
function sectionsInUse(config: ZaptableConfig): [TlsAt, TlsSection][] {
  const { mqtt } = config;
  return [
    ...(mqtt.broker === 'external' ? [['mqtt.external.tls', mqtt.external.tls] as [TlsAt, TlsSection]] : []),
    ...(mqtt.venue.url === undefined ? [] : [['mqtt.venue.tls', mqtt.venue.tls] as [TlsAt, TlsSection]]),
  ];
}

/** Reads every section in use, or says which files cannot be read (all of them, as configuration errors). */
export function brokerTlsOf(config: ZaptableConfig): Checked<{ readonly tls: BrokerTls }, ConfigError> {
  const tls: { external?: TlsPem; venue?: TlsPem } = {};
  const errors: ConfigError[] = [];
  for (const [at, section] of sectionsInUse(config)) {
    const read = tlsOptionsOf(section, at);
    if (!read.ok) errors.push(configError(read.code, read.path, read.message));
    else tls[at === 'mqtt.external.tls' ? 'external' : 'venue'] = read.tls;
  }
  return errors.length > 0 ? { ok: false, errors } : { ok: true, tls };
}

/** For a caller that has only the configuration (a test, a tool): the TLS, or an Error naming every file. */
export function brokerTlsOrThrow(config: ZaptableConfig): BrokerTls {
  const read = brokerTlsOf(config);
  if (read.ok) return read.tls;
  throw new Error(read.errors.map((e) => `${e.code}: ${e.path}: ${e.message}`).join('; '));
}
