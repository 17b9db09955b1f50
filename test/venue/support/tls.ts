/**
 * A throw-away certificate authority for the TLS tests, made with `openssl` in a temporary folder (EC P-256
 * keys: ~30 ms a certificate): a CA, a server certificate for 127.0.0.1 and localhost signed by it, and client
 * certificates on demand; and the Mosquitto listener lines that serve it.
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';

export interface TestPki {
  readonly dir: string;
  /** The CA certificate (PEM): what a client must trust. */
  readonly ca: string;
  readonly caKey: string;
  /** The broker's certificate and key (for 127.0.0.1 and localhost). */
  readonly serverCert: string;
  readonly serverKey: string;
}

function openssl(dir: string, args: readonly string[]): void {
  execFileSync('openssl', args, { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] });
}

/** A key (P-256) and a certificate for `name` signed by the CA, with the extensions `ext` (openssl's syntax). */
function signed(dir: string, name: string, subject: string, ext: string): { cert: string; key: string } {
  const key = path.join(dir, `${name}.key`);
  const cert = path.join(dir, `${name}.pem`);
  writeFileSync(path.join(dir, `${name}.ext`), ext);
  openssl(dir, ['req', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes', '-keyout', key, '-out', `${name}.csr`, '-subj', subject]);
  openssl(dir, ['x509', '-req', '-in', `${name}.csr`, '-CA', 'ca.pem', '-CAkey', 'ca.key', '-CAcreateserial', '-days', '1',
    '-extfile', `${name}.ext`, '-out', cert]);
  return { cert, key };
}

/** Makes the CA and the server certificate in `dir`. */
export function makeTestPki(dir: string): TestPki {
  openssl(dir, ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes', '-keyout', 'ca.key', '-out', 'ca.pem',
    '-subj', '/CN=zaptable test CA', '-days', '1']);
  const server = signed(dir, 'server', '/CN=localhost', 'subjectAltName=DNS:localhost,IP:127.0.0.1\nextendedKeyUsage=serverAuth\n');
  return { dir, ca: path.join(dir, 'ca.pem'), caKey: path.join(dir, 'ca.key'), serverCert: server.cert, serverKey: server.key };
}

/** A client certificate signed by the CA, for a broker with `require_certificate true`. */
export function makeClientCert(pki: TestPki, name: string): { readonly cert: string; readonly key: string } {
  return signed(pki.dir, name, `/CN=${name}`, 'extendedKeyUsage=clientAuth\n');
}

/**
 * The lines that make the Mosquitto listener just above them (or a new one on `port`) speak TLS with the
 * test CA; `clientCertificates`: it also requires a client certificate signed by the CA.
 */
export function mosquittoTlsLines(
  pki: TestPki, options: { readonly port?: number; readonly clientCertificates?: boolean } = {},
): string[] {
  return [
    ...(options.port === undefined ? [] : [`listener ${options.port} 127.0.0.1`]),
    `cafile ${pki.ca}`, `certfile ${pki.serverCert}`, `keyfile ${pki.serverKey}`,
    ...(options.clientCertificates === true ? ['require_certificate true'] : []),
  ];
}
