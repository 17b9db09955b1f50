/**
 * The `mqtt:` and `dashboard:` sections. Security by default (design principle 10): the embedded broker
 * accepts only the identities listed here; a password or token left out is generated at start-up
 * (secrets.ts), never "no authentication".
 */
import { Type } from '@sinclair/typebox';
import { Choice, Nullable, Port, Secret, Section } from './schema-helpers.ts';

const Username = (description: string, fallback?: string) => Type.String({
  minLength: 1, maxLength: 64, pattern: '^[^\\s:]+$', description,
  'x-message': 'must be 1–64 characters without spaces or ":"',
  ...(fallback === undefined ? {} : { default: fallback }),
});

const Identity = (who: string, user: string, role: string) => Section({
  username: Username(`The ${who}'s MQTT user name.`, user),
  password: Type.Optional(Secret({
    description: `The ${who}'s MQTT password.`,
    'x-default-text': 'embedded broker: generated at start-up (printed once); external broker: none',
  })),
}, { default: {}, description: `The ${who}'s identity on the broker (${role}).` });

const Client = Section({
  username: Username('User name.'),
  password: Secret({ minLength: 8, description: 'Password (at least 8 characters).' }),
  role: Choice(['viewer', 'referee'] as const, {
    default: 'viewer', description: '`viewer`: may subscribe to public topics; `referee`: may also send requests.',
  }),
}, { description: 'An identity the embedded broker accepts.' });

const Tls = Section({
  ca: Type.Optional(Type.String({
    minLength: 1, description: 'CA certificate file (PEM) to trust: the CA that signed the broker\'s certificate, when no system CA did (a venue\'s Mosquitto, docs/venue.md).',
    'x-default-text': 'the system CAs',
  })),
  cert: Type.Optional(Type.String({ minLength: 1, description: 'Client certificate file (PEM), for brokers that require one (Mosquitto `require_certificate true`); needs `key`.' })),
  key: Type.Optional(Type.String({ minLength: 1, description: 'Client key file (PEM) of `cert`.' })),
  rejectUnauthorized: Type.Boolean({ default: true, description: 'Refuse a broker whose certificate does not verify. Turn off only on a test bench.' }),
}, {
  default: {},
  description: 'TLS for `mqtts://` and `wss://` URLs. Relative paths are relative to the config file; the files are read at start (TLS_FILE_UNREADABLE when one cannot be).',
});

const Embedded = Section({
  host: Type.String({ minLength: 1, default: '127.0.0.1', description: 'Address to listen on: 127.0.0.1 (this machine) or 0.0.0.0 (the network).' }),
  port: Port({ default: 1883, description: 'MQTT over TCP.' }),
  websocketPort: Nullable(Port({ description: '' }), {
    default: null,
    description: 'Also serve MQTT over WebSocket (ws://, wss:// with TLS) on this port, for browsers and MQTT.js web clients; same logins and roles. null: off.',
  }),
}, { default: {}, description: 'The embedded broker (aedes), started by the controller.' });

const External = Section({
  url: Type.Optional(Type.String({
    pattern: '^(mqtts?|wss?)://[^\\s]+$', description: 'Broker URL (`mqtt://`, `mqtts://`, `ws://`, `wss://`). Required for `broker: external`.',
    'x-message': 'must be a URL starting with mqtt://, mqtts://, ws:// or wss://',
  })),
  tls: Tls,
}, { default: {}, description: 'An external broker (Mosquitto, EMQX, …).' });

const Venue = Section({
  url: Type.Optional(Type.String({
    pattern: '^(mqtts?|wss?)://[^\\s]+$',
    description: 'The venue broker (`mqtt://`, `mqtts://`, `ws://`, `wss://`). Set, the controller also publishes its tables there and answers requests from there, while the tables play on its own broker; what the venue misses while unreachable is replayed from the event log (docs/venue-offline.md). Unset: no venue link.',
    'x-message': 'must be a URL starting with mqtt://, mqtts://, ws:// or wss://',
  })),
  username: Username('The controller\'s user name on the venue broker (role controller there).', 'zaptable-controller'),
  password: Type.Optional(Secret({ description: 'Its password on the venue broker.', 'x-default-text': 'none' })),
  tls: Tls,
}, { default: {}, description: 'A venue broker the controller links to besides its own (many tables, one venue: docs/venue.md).' });

const Requests = Section({
  ratePerSecond: Type.Number({
    exclusiveMinimum: 0, default: 100,
    description: 'Requests one MQTT client may send per second, sustained (a token bucket); more are answered RATE_LIMITED with the wait.',
  }),
  burst: Type.Integer({ minimum: 1, default: 200, description: 'Requests one MQTT client may send at once after a quiet spell (the bucket\'s size).' }),
  queuePerClient: Type.Integer({ minimum: 1, default: 32, description: 'Requests one MQTT client may have waiting for their answer; more are answered RATE_LIMITED.' }),
  queueTotal: Type.Integer({ minimum: 1, default: 1024, description: 'Requests all clients together may have waiting for their answer.' }),
  brokerPacePerSecond: Type.Number({
    minimum: 0, default: 500,
    description: 'Embedded broker: publishes per second (burst: twice as many) a referee\'s connection may send before the broker stops reading it for a while; 0: no brake.',
  }),
}, { default: {}, description: 'Limits on the requests the controller answers, so that one client cannot flood a table (docs/mqtt.md).' });

export const Mqtt = Section({
  baseTopic: Type.String({
    default: 'zaptable', pattern: '^[^#+/\\s]+(/[^#+/\\s]+)*$', description: 'Prefix of every topic (as Zigbee2MQTT\'s base topic).',
    'x-message': 'must be topic levels separated by "/", without spaces, wildcards (+ #) or empty levels',
  }),
  broker: Choice(['embedded', 'external'] as const, { default: 'embedded', description: '`embedded` (aedes in this process) or `external`.' }),
  embedded: Embedded,
  external: External,
  venue: Venue,
  controller: Identity('controller', 'zaptable-controller', 'the only identity that may publish state'),
  viewer: Identity('demo viewer', 'zaptable-viewer',
    'role viewer: reads the public topics and sends only history requests; the embedded broker creates it so you can try mosquitto_sub'),
  clients: Type.Array(Client, { default: [], description: 'Further identities the embedded broker accepts (an external broker has its own).' }),
  requests: Requests,
}, { default: {}, description: 'MQTT: the broker and the identities on it.' });

export const Controller = Section({
  id: Type.Optional(Type.String({
    pattern: '^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$',
    description: 'This controller\'s id: the `<controller>` level of its bridge topics (`<base>/bridge/<id>/…`) and part of its MQTT client ids, so that several controllers share one broker (a venue, docs/venue.md). Unique per venue.',
    'x-default-text': 'the host name (characters that cannot stand in a topic level become -)',
    'x-message': 'must be 1–64 letters, digits, _ . - starting with a letter or digit (it is one MQTT topic level)',
  })),
}, { default: {}, description: 'This controller among the others at a venue.' });

const ControllerToken = Section({
  controller: Type.String({
    pattern: '^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$', description: 'A controller\'s id (`controller.id` in its configuration).',
    'x-message': 'must be a controller id: 1–64 letters, digits, _ . - starting with a letter or digit',
  }),
  token: Secret({ minLength: 16, description: 'The token that controller accepts (its `dashboard.token`).' }),
}, { description: 'The request token of one controller at the venue.' });

export const Dashboard = Section({
  enabled: Type.Boolean({ default: true, description: 'Serve the dashboard.' }),
  host: Type.String({ minLength: 1, default: '0.0.0.0', description: 'Address to listen on (0.0.0.0: every interface).' }),
  port: Port({ default: 8080, description: 'HTTP port.' }),
  token: Type.Optional(Secret({
    minLength: 16, description: 'Token for referee controls (at least 16 characters); viewing needs none.',
    'x-default-text': 'generated at start-up (printed once)',
  })),
  mqtt: Identity('dashboard', 'zaptable-dashboard', 'a referee: it forwards the requests of token holders'),
  controllerTokens: Type.Array(ControllerToken, {
    default: [],
    description: 'A venue dashboard (`zaptable dashboard` following several controllers): the token to send with a request to each controller\'s tables; a controller not listed gets `dashboard.token`.',
  }),
}, { default: {}, description: 'The web dashboard (Fastify).' });

export const Storage = Section({
  directory: Type.String({ minLength: 1, default: 'data', description: 'Where the controller keeps its files; relative to the config file\'s folder.' }),
  database: Type.String({ minLength: 1, default: 'zaptable.db', description: 'The SQLite event log; relative to `directory`.' }),
  registry: Type.String({ minLength: 1, default: 'tags.json', description: 'The tag registry (tag → barrel/card); relative to `directory`.' }),
  calibration: Type.String({ minLength: 1, default: 'calibration.json', description: 'Barrel weight calibration; relative to `directory`.' }),
}, { default: {}, description: 'Files.' });

export const Log = Section({
  level: Choice(['trace', 'debug', 'info', 'warn', 'error', 'silent'] as const, { default: 'info', description: 'Least severe level logged.' }),
}, { default: {}, description: 'Logging.' });
