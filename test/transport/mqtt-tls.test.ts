/**
 * The one reading of a TLS failure (transport/mqtt-tls.ts): each kind of certificate problem gets its code and
 * what to set, in the config key of the section it came from; errors that are not about TLS are left to the
 * usual retrying. The handshakes that produce these errors: test/venue/broker-tls.test.ts (real Mosquitto).
 */
import { describe, expect, it } from 'vitest';
import { tlsClientOptions, tlsProblem } from '../../controller/transport/mqtt-tls.ts';

const failure = (code: string | number, message: string, extra: Record<string, unknown> = {}): Error =>
  Object.assign(new Error(message), { code, ...extra });
const venue = { ca: 'PEM', source: 'mqtt.venue.tls' };

describe('tlsProblem', () => {
  it('an untrusted certificate names the ca key of the section it came from', () => {
    expect(tlsProblem(failure('SELF_SIGNED_CERT_IN_CHAIN', 'self-signed certificate in certificate chain'), venue)).toBe(
      'TLS_CERT_UNTRUSTED: the broker\'s certificate does not verify (self-signed certificate in certificate chain): '
      + 'set mqtt.venue.tls.ca to the CA certificate (PEM) that signed it',
    );
    expect(tlsProblem(failure('UNABLE_TO_VERIFY_LEAF_SIGNATURE', 'unable to verify the first certificate'), undefined)).toMatch(/set tls\.ca to/);
  });

  it('an expired certificate, a certificate for another name, a handshake refused for want of a client certificate', () => {
    expect(tlsProblem(failure('CERT_HAS_EXPIRED', 'certificate has expired'), venue)).toMatch(/^TLS_CERT_EXPIRED: .*this machine's clock/);
    expect(tlsProblem(failure('ERR_TLS_CERT_ALTNAME_INVALID', 'Hostname/IP does not match'), venue)).toMatch(/^TLS_CERT_WRONG_NAME: /);
    // OpenSSL's multi-line message is replaced by its short reason.
    const alert = failure('ERR_SSL_TLSV13_ALERT_CERTIFICATE_REQUIRED', '80:error:0A00045C:SSL routines::tlsv13 alert certificate required:\n', {
      reason: 'tlsv13 alert certificate required',
    });
    expect(tlsProblem(alert, venue)).toBe('TLS_HANDSHAKE_FAILED: the TLS handshake with the broker failed (tlsv13 alert certificate required); '
      + 'a broker that requires a client certificate needs mqtt.venue.tls.cert and mqtt.venue.tls.key, signed by a CA it trusts');
  });

  it('leaves errors that are not about TLS alone (a refused login, an unreachable broker)', () => {
    expect(tlsProblem(failure(5, 'Connection refused: Not authorized'), venue)).toBeUndefined();
    expect(tlsProblem(failure('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:8883'), venue)).toBeUndefined();
    expect(tlsProblem(new Error('no code'), venue)).toBeUndefined();
  });
});

describe('tlsClientOptions', () => {
  it('passes the PEM text given, verifies by default, and adds nothing without TLS settings', () => {
    expect(tlsClientOptions(undefined)).toEqual({});
    expect(tlsClientOptions({ ca: 'CA' })).toEqual({ ca: 'CA', rejectUnauthorized: true });
    expect(tlsClientOptions({ ca: 'CA', cert: 'C', key: 'K', rejectUnauthorized: false, source: 'mqtt.external.tls' }))
      .toEqual({ ca: 'CA', cert: 'C', key: 'K', rejectUnauthorized: false });
  });
});
