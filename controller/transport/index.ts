/**
 * The transport layer: MQTT topics and payloads (one typed map), the embedded broker, the controller's
 * connections and request dispatch. docs/mqtt.md is the contract; this is its implementation.
 */
export {
  ROLES, ROLE_RULES, PUBLIC_READ, filterCovers, mayPublish, maySubscribe, mayReceive, type Role, type RoleRule,
} from './acl.ts';
export {
  ControllerTransport, type ControllerTransportOptions, type TransportStats, type VenueLinkOptions,
} from './controller-transport.ts';
export {
  EmbeddedBroker, brokerUsersProblem, type BrokerUser, type BrokerStats, type EmbeddedBrokerOptions,
} from './embedded-broker.ts';
export { TRANSPORT_ERRORS, transportError, type RequestError, type TransportErrorCode } from './errors.ts';
export { rateLimited, silentLogger, type LogFields, type RateLimitOptions, type TransportLogger } from './logger.ts';
export { mosquittoAcl, isBrokerUsername, venueControllerRules, type BrokerAccount } from './mosquitto-acl.ts';
export { VenueView, probeVenue, type ProbeVenueOptions, type VenueController, type VenueNotice } from './venue.ts';
export { MAX_PACKET_BYTES, PacketScanner, guardPacketSize } from './packet-size-guard.ts';
export { MqttConnection, type ConnectionStats, type MqttConnectionOptions } from './mqtt-connection.ts';
export { tlsClientOptions, tlsProblem, type MqttTlsOptions } from './mqtt-tls.ts';
export type {
  Availability, BridgeHealthPayload, BridgeTableEntry, BridgeTablesPayload, BuzzerStatePayload, RefusedTable,
  EventFields, GameStatePayload, HealthPayload, IdleStatePayload, JsonValue,
  PublicBuzzerView, PublicEvent, PublicView, RequestEnvelope, ResponsePayload, StatePayload, TableEvent, Transaction,
} from './payloads.ts';
export {
  buzzerEventOf, buzzerStateOf, idleStateOf, publicEventOf, publicStateOf, tableEventOf, type PublishMeta,
} from './public-view.ts';
export { DEFAULT_RATE_LIMIT, RequestDispatcher, type DispatcherStats, type RequestDispatcherOptions } from './request-dispatcher.ts';
export { RateLimiter, rateLimitProblem, type Admission, type RateLimitSettings, type RateLimiterOptions } from './rate-limit.ts';
export { RequestQueue, type QueueAdmission, type RequestQueueOptions, type RequestQueueStats } from './request-queue.ts';
export { MIN_TOKEN_LENGTH, RequestTokens, type RequestToken } from './request-tokens.ts';
export {
  REQUESTS, REQUEST_NAMES, isKnownRequest, type Applied, type HandlerResult, type Identity, type RequestContext, type RequestData,
  type RequestHandler, type RequestName, type RequestParams, type RequestSpec,
} from './requests.ts';
export { TableChannel, type TableChannelOptions } from './table-channel.ts';
export {
  HISTORY_DEFAULT_EVENTS, HISTORY_MAX_BYTES, HISTORY_MAX_EVENTS, historyPage, type EventHistory, type RecordedEvent,
} from './event-history.ts';
export { MemoryTransactionStore, transactionKey, type TransactionStore } from './transaction-cache.ts';
export {
  BRIDGE_LEVEL, DEFAULT_BASE_TOPIC, TOPIC_SPECS, Topics, baseTopicProblem, encodePayload, isControllerId,
  isRequestName, isStationId, isTableId, ownClientId,
  type ParsedTopic, type Topic, type TopicKind, type TopicPayloads, type TopicSpec,
} from './topics.ts';
