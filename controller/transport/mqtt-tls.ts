/**
 * TLS for every MQTT client of the project (the controller's connections, its venue probe, the dashboard's
 * hub): the one mapping of the configured PEM text onto mqtt.js's options, and the one reading of a TLS failure
 * for people. A certificate that does not verify is a configuration mistake that retrying cannot fix, so a
 * client that has not connected yet gives up with `tlsProblem`'s sentence instead of retrying in silence.
 */
import type { IClientOptions } from 'mqtt';

/** TLS settings for `mqtts://` and `wss://` URLs (PEM text, as read by config/tls-files.ts). */
export interface MqttTlsOptions {
  /** CA certificate(s) to trust instead of the system's (a broker with a private CA). */
  readonly ca?: string;
  /** Client certificate and key, for brokers that require them. */
  readonly cert?: string;
  readonly key?: string;
  /** Default true; false accepts any certificate (never in production). */
  readonly rejectUnauthorized?: boolean;
  /** Where these settings come from (the config key `mqtt.venue.tls`), for the error that says what to set. */
  readonly source?: string;
}

/** The mqtt.js options for `tls` (none without it). */
export function tlsClientOptions(tls: MqttTlsOptions | undefined): Pick<IClientOptions, 'ca' | 'cert' | 'key' | 'rejectUnauthorized'> {
  if (tls === undefined) return {};
  return {
    ...(tls.ca === undefined ? {} : { ca: tls.ca }),
    ...(tls.cert === undefined ? {} : { cert: tls.cert }),
    ...(tls.key === undefined ? {} : { key: tls.key }),
    rejectUnauthorized: tls.rejectUnauthorized ?? true,
  };
}

/** OpenSSL's verification results for a server certificate that node:tls reports as `error.code`. */
const UNTRUSTED = new Set([
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE', 'SELF_SIGNED_CERT_IN_CHAIN', 'DEPTH_ZERO_SELF_SIGNED_CERT', 'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY', 'CERT_UNTRUSTED', 'CERT_SIGNATURE_FAILURE', 'CERT_REJECTED',
]);
const EXPIRED = new Set(['CERT_HAS_EXPIRED', 'CERT_NOT_YET_VALID']);
const WRONG_NAME = new Set(['ERR_TLS_CERT_ALTNAME_INVALID', 'HOSTNAME_MISMATCH']);

/**
 * What a TLS failure means and what to set (in `tls.source`, the config key), or undefined for an error that is
 * not about TLS (a refused login, an unreachable host: retried as usual).
 */
export function tlsProblem(error: unknown, tls: MqttTlsOptions | undefined): string | undefined {
  const at = tls?.source ?? 'tls';
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code !== 'string') return undefined;
  // OpenSSL's errors carry a short `reason` ("tlsv13 alert certificate required") beside a multi-line message.
  const reason = (error as { reason?: unknown }).reason;
  const said = typeof reason === 'string' ? reason : (error instanceof Error ? error.message : code).split('\n')[0] ?? code;
  if (UNTRUSTED.has(code)) {
    return `TLS_CERT_UNTRUSTED: the broker's certificate does not verify (${said}): set ${at}.ca to the CA certificate (PEM) that signed it`;
  }
  if (EXPIRED.has(code)) return `TLS_CERT_EXPIRED: the broker's certificate is outside its validity period (${said}): renew it, or check this machine's clock`;
  if (WRONG_NAME.has(code)) return `TLS_CERT_WRONG_NAME: the broker's certificate is not for the host in the URL (${said}): use a name or address it lists`;
  if (code.startsWith('ERR_SSL_') || code.startsWith('ERR_OSSL_')) {
    const client = /CERTIFICATE_REQUIRED|HANDSHAKE_FAILURE|BAD_CERTIFICATE|UNKNOWN_CA/i.test(code)
      ? `; a broker that requires a client certificate needs ${at}.cert and ${at}.key, signed by a CA it trusts` : '';
    return `TLS_HANDSHAKE_FAILED: the TLS handshake with the broker failed (${said})${client}`;
  }
  return undefined;
}
