/**
 * The controller's own check of who sent a request (defence in depth behind the broker's ACL). MQTT 3.1.1
 * (the version aedes speaks) carries no sender identity on a message, and MQTT 5 user properties are set by
 * the sender, so neither can be trusted: a request names its sender by a secret `token` from the
 * configuration. The dashboard sends the token of the person logged in; a referee's tool sends its own.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { Identity } from './requests.ts';

/** A configured request token. */
export interface RequestToken {
  /** Who holds it, for logs (never the token itself). */
  readonly id: string;
  /** The secret; at least 16 characters. */
  readonly token: string;
  readonly role: Identity['role'];
}

/** The minimum token length: shorter secrets are guessable over a network. */
export const MIN_TOKEN_LENGTH = 16;

function digest(value: string): Buffer {
  return createHash('sha256').update(value, 'utf8').digest();
}

/** Maps tokens to identities in constant time per token (no early exit on the first differing byte). */
export class RequestTokens {
  private readonly entries: readonly { readonly digest: Buffer; readonly identity: Identity }[];

  /** Throws on a token shorter than MIN_TOKEN_LENGTH or a duplicate (configuration errors, at start-up). */
  constructor(tokens: readonly RequestToken[]) {
    const seen = new Set<string>();
    for (const t of tokens) {
      if (t.token.length < MIN_TOKEN_LENGTH) throw new Error(`request token of "${t.id}" is shorter than ${MIN_TOKEN_LENGTH} characters`);
      if (seen.has(t.token)) throw new Error(`request token of "${t.id}" is used twice`);
      seen.add(t.token);
    }
    this.entries = tokens.map((t) => ({ digest: digest(t.token), identity: { id: t.id, role: t.role } }));
  }

  /** The identity holding `token`, or null. */
  identify(token: unknown): Identity | null {
    if (typeof token !== 'string' || token.length === 0 || token.length > 1024) return null;
    const candidate = digest(token);
    let found: Identity | null = null;
    // Compare against every entry so the time taken does not tell which (or whether one) matched.
    for (const entry of this.entries) if (timingSafeEqual(entry.digest, candidate)) found = entry.identity;
    return found;
  }
}
