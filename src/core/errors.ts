// One error model: the store, the validator and the HTTP layer all throw ApiError, and only the
// renderer turns it into the API's `error.list` envelope.

export const ERROR_STATUS = {
  parameter_not_found: 400,
  parameter_invalid: 400,
  bad_request: 400,
  // An Intercom-Version the mock does not serve, or an operation the request's version lacks (surface §18).
  intercom_version_invalid: 400,
  /** DELETE /tags/{id} of a tag a segment's rule uses. */
  tag_has_dependent_objects: 400,
  // A second scroll while the app's one scroll is live (surface U4).
  scroll_exists: 400,
  // The real API's answer to a user_id another customer holds ("User already exists.").
  unique_user_constraint: 400,
  token_not_found: 401,
  unauthorized: 401,
  action_forbidden: 403,
  resource_limit_exceeded: 403,
  // Appending to a bulk job past its closing_at (the real bulk API's code).
  forbidden: 403,
  not_found: 404,
  company_not_found: 404,
  admin_not_found: 404,
  tag_not_found: 404,
  team_not_found: 404,
  // Appending to a bulk job that does not exist (the real bulk API's code).
  job_not_found: 404,
  method_not_allowed: 405,
  not_acceptable: 406,
  conflict: 409,
  // POST /messages: an email without a subject (the real API's 422 parameter_not_found).
  subject_missing: 422,
  request_too_large: 413,
  uri_too_long: 414,
  unsupported_media_type: 415,
  // A Host the mock does not answer to (http/origin-guard.ts: DNS rebinding).
  misdirected_request: 421,
  header_fields_too_large: 431,
  rate_limit_exceeded: 429,
  server_error: 500,
  // Only ever answered by an injected fault, for clients' retry logic.
  bad_gateway: 502,
  service_unavailable: 503,
  gateway_timeout: 504,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

/** The code a bare status stands for (a fault given as `status`): the most general of that status. */
export const CODE_FOR_STATUS: Readonly<Record<number, ErrorCode>> = {
  400: 'bad_request',
  401: 'unauthorized',
  403: 'action_forbidden',
  404: 'not_found',
  405: 'method_not_allowed',
  406: 'not_acceptable',
  409: 'conflict',
  413: 'request_too_large',
  414: 'uri_too_long',
  415: 'unsupported_media_type',
  429: 'rate_limit_exceeded',
  431: 'header_fields_too_large',
  500: 'server_error',
  502: 'bad_gateway',
  503: 'service_unavailable',
  504: 'gateway_timeout',
};

export interface ErrorItem {
  code: ErrorCode;
  message: string;
  field?: string;
}

/**
 * The contract notes ask for a 413 whose code is `bad_request`, and the other size limits follow
 * it; every other code is its own wire code. Looked up here rather than stored twice.
 */
const WIRE_CODE: Partial<Record<ErrorCode, string>> = {
  request_too_large: 'bad_request',
  uri_too_long: 'bad_request',
  header_fields_too_large: 'bad_request',
  subject_missing: 'parameter_not_found',
};

export function wireCode(code: ErrorCode): string {
  return WIRE_CODE[code] ?? code;
}

export class ApiError extends Error {
  readonly status: number;
  readonly errors: readonly ErrorItem[];
  /** Extra response headers, such as Allow on a 405. */
  readonly headers: Readonly<Record<string, string>> | undefined;

  constructor(errors: ErrorItem | readonly ErrorItem[], headers?: Record<string, string>) {
    const list = Array.isArray(errors) ? (errors as readonly ErrorItem[]) : [errors as ErrorItem];
    if (list.length === 0) throw new Error('ApiError needs at least one error item');
    const first = list[0] as ErrorItem;
    // An ApiError is an answer, not a bug: skipping the stack trace makes it ~10x cheaper, which
    // matters on hot paths such as 404s and 429s.
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    super(first.message);
    Error.stackTraceLimit = limit;
    this.name = 'ApiError';
    this.status = ERROR_STATUS[first.code];
    this.errors = list;
    this.headers = headers;
  }
}

export function apiError(code: ErrorCode, message: string, field?: string): ApiError {
  return new ApiError(field === undefined ? { code, message } : { code, message, field });
}

// Stryker disable next-line StringLiteral: error-message wording
export const notFound = (message = 'Resource Not Found'): ApiError => apiError('not_found', message);
export const invalid = (field: string, message: string): ApiError => apiError('parameter_invalid', message, field);
export const missing = (field: string, message = `${field} is a required parameter.`): ApiError =>
  apiError('parameter_not_found', message, field);

/**
 * The real API's `bad '<name>' parameter`, followed by the values it takes, so the answer says
 * what to send instead.
 */
export const badChoice = (name: string, accepted: readonly string[], context = ''): ApiError => {
  const list = accepted.length > 1 ? `${accepted.slice(0, -1).join(', ')} or ${accepted.at(-1) as string}` : (accepted[0] ?? '');
  return apiError('bad_request', `bad '${name}' parameter: ${context}use ${list}`, name);
};
