/**
 * The dashboard's HTTP error catalogue (style practice 3: errors are data with stable codes). Every error
 * response has the shape `{statusCode, code, error, message}`; tests assert on `code`. A table's own answer to
 * a request (its rules rejections, `UNAUTHORIZED` from the controller, …) is not an HTTP error: it is relayed
 * as the response body `{status, data, error, transaction}` with HTTP 200.
 */

export const DASHBOARD_ERRORS = {
  UNAUTHORIZED: { statusCode: 401, message: 'controls need the dashboard token (body "token" or "Authorization: Bearer …")' },
  TABLE_NOT_FOUND: { statusCode: 404, message: 'no such table on this broker' },
  UNKNOWN_REQUEST: { statusCode: 404, message: 'no request of that name (docs/mqtt.md lists them)' },
  NOT_FOUND: { statusCode: 404, message: 'no such route' },
  STATION_NOT_FOUND: { statusCode: 404, message: 'no health received from that station since the dashboard started' },
  CONFIG_UNAVAILABLE: { statusCode: 404, message: 'this dashboard was started without the controller\'s configuration (`zaptable start` and `zaptable dashboard` pass it)' },
  BAD_REQUEST: { statusCode: 400, message: 'the request does not match its schema' },
  RECORD_NOT_FOUND: { statusCode: 404, message: 'no such game or step in the table\'s log' },
  RECORD_UNAVAILABLE: { statusCode: 502, message: 'the table could not give the record' },
  REQUEST_TIMEOUT: { statusCode: 504, message: 'the table did not answer in time; the outcome is unknown: watch its state' },
  MQTT_UNAVAILABLE: { statusCode: 503, message: 'the dashboard is not connected to the MQTT broker' },
  INTERNAL: { statusCode: 500, message: 'internal error (details in the dashboard log)' },
} as const satisfies Record<string, { readonly statusCode: number; readonly message: string }>;

export type DashboardErrorCode = keyof typeof DASHBOARD_ERRORS;

/** An error a route throws on purpose; the error handler turns it into the catalogue's response. */
export class DashboardError extends Error {
  readonly code: DashboardErrorCode;
  readonly statusCode: number;

  constructor(code: DashboardErrorCode, detail?: string) {
    const base = DASHBOARD_ERRORS[code].message;
    super(detail === undefined ? base : `${base}: ${detail}`);
    this.name = 'DashboardError';
    this.code = code;
    this.statusCode = DASHBOARD_ERRORS[code].statusCode;
  }
}

/** The body of an error response. */
export interface ErrorBody {
  readonly statusCode: number;
  readonly code: DashboardErrorCode;
  readonly error: string;
  readonly message: string;
}

const STATUS_TEXT: Readonly<Record<number, string>> = {
  400: 'Bad Request', 401: 'Unauthorized', 404: 'Not Found', 500: 'Internal Server Error', 502: 'Bad Gateway', 503: 'Service Unavailable', 504: 'Gateway Timeout',
};

export function errorBody(code: DashboardErrorCode, message?: string): ErrorBody {
  const { statusCode } = DASHBOARD_ERRORS[code];
  return { statusCode, code, error: STATUS_TEXT[statusCode] ?? 'Error', message: message ?? DASHBOARD_ERRORS[code].message };
}
