/**
 * The broker TLS files (config/tls-files.ts): relative paths start at the config file's folder (the venue's
 * too), the files of the brokers in use are read once by loadConfig, and a file that cannot be read, or a
 * client certificate without its key, is a configuration error with its line before anything starts.
 * The handshakes themselves are tested against a real Mosquitto in test/transport/tls-mosquitto.test.ts.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { configCommand } from '../../controller/cli/commands/config-check.ts';
import { memoryOutput } from '../../controller/cli/output.ts';
import { loadConfig } from '../../controller/config/index.ts';
import { configOf, errorsOf } from './helpers.ts';

const PEM = '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n';

/** A config file in a fresh folder with a `certs/` folder beside it holding `files`. */
function folder(yaml: string, files: Readonly<Record<string, string>> = {}): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'zaptable-tls-config-'));
  mkdirSync(path.join(dir, 'certs'));
  for (const [name, text] of Object.entries(files)) writeFileSync(path.join(dir, 'certs', name), text);
  const file = path.join(dir, 'zaptable.yaml');
  writeFileSync(file, yaml);
  return file;
}

const external = (tls: string) => `mqtt:\n  broker: external\n  external:\n    url: mqtts://broker.example:8883\n    tls: ${tls}\n`;
const venue = (tls: string) => `mqtt:\n  venue:\n    url: mqtts://venue.example:8883\n    tls: ${tls}\n`;
const load = (file: string) => loadConfig({ file, env: {}, generateSecrets: false });

describe('broker TLS files', () => {
  it('reads the external broker\'s and the venue\'s files, relative to the config file, as PEM text', () => {
    const file = folder(`${external('{ ca: certs/ca.pem }')}  venue: { url: "mqtts://venue.example:8883", tls: { ca: certs/venue-ca.pem, cert: certs/pi.pem, key: certs/pi.key } }\n`, {
      'ca.pem': PEM, 'venue-ca.pem': `${PEM}venue`, 'pi.pem': `${PEM}pi`, 'pi.key': '-----BEGIN PRIVATE KEY-----\nkey\n',
    });
    const loaded = configOf(load(file));
    const dir = path.dirname(file);
    expect(loaded.config.mqtt.venue.tls.ca).toBe(path.join(dir, 'certs', 'venue-ca.pem'));
    expect(loaded.tls.external).toEqual({ ca: PEM, rejectUnauthorized: true, source: 'mqtt.external.tls' });
    expect(loaded.tls.venue).toEqual({
      ca: `${PEM}venue`, cert: `${PEM}pi`, key: '-----BEGIN PRIVATE KEY-----\nkey\n', rejectUnauthorized: true, source: 'mqtt.venue.tls',
    });
  });

  it('a missing file is TLS_FILE_UNREADABLE with the key, the file and its line', () => {
    const file = folder(venue('{ ca: certs/nope.pem }'));
    const errors = errorsOf(load(file));
    expect(errors).toEqual([expect.objectContaining({
      code: 'TLS_FILE_UNREADABLE', path: 'mqtt.venue.tls.ca', line: 4,
      message: `cannot read ${path.join(path.dirname(file), 'certs', 'nope.pem')}: no such file`,
    })]);
  });

  it('a file that is not PEM (a DER certificate, a wrong path) is TLS_FILE_UNREADABLE too', () => {
    const file = folder(external('{ ca: certs/ca.der }'), { 'ca.der': '\u0030\u0082\u0001\u0022' });
    expect(errorsOf(load(file))).toEqual([expect.objectContaining({ code: 'TLS_FILE_UNREADABLE', path: 'mqtt.external.tls.ca' })]);
    expect(errorsOf(load(file))[0]?.message).toMatch(/ca\.der is not a PEM file/);
  });

  it('a client certificate without its key, or a key without its certificate, is CONFIG_INVALID', () => {
    const yaml = `${external('{ cert: certs/pi.pem }')}  venue: { url: "mqtts://v:8883", tls: { key: certs/pi.key } }\n`;
    const file = folder(yaml, { 'pi.pem': PEM, 'pi.key': PEM });
    expect(errorsOf(load(file)).map((e) => [e.code, e.path, e.message])).toEqual([
      ['CONFIG_INVALID', 'mqtt.external.tls.cert', 'needs mqtt.external.tls.key too (the client certificate\'s private key file)'],
      ['CONFIG_INVALID', 'mqtt.venue.tls.key', 'needs mqtt.venue.tls.cert too (the client certificate the key belongs to)'],
    ]);
  });

  it('reads only the brokers in use, and nothing with tlsFiles: false (another machine\'s file)', () => {
    // The embedded broker: mqtt.external is not used, its file is not read.
    const unused = folder('mqtt:\n  external: { tls: { ca: certs/nope.pem } }\n');
    expect(configOf(load(unused)).tls).toEqual({});
    const missing = folder(venue('{ ca: certs/nope.pem }'));
    expect(configOf(loadConfig({ file: missing, env: {}, generateSecrets: false, tlsFiles: false })).tls).toEqual({});
  });

  it('zaptable config check says it with the file and line (exit 1)', () => {
    const file = folder(external('{ ca: certs/nope.pem }'));
    const io = memoryOutput();
    expect(configCommand(['check', file], io)).toBe(1);
    expect(io.errors[0]).toMatch(/zaptable\.yaml:5:\d+ mqtt\.external\.tls\.ca: cannot read .*nope\.pem: no such file/);
    expect(io.errors[0]).toMatch(/ \[TLS_FILE_UNREADABLE\]$/);
  });
});
