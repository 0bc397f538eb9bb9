// The one error-code catalogue. Pure: workflows import it for ApplicationFailure types.

export const ErrorCodes = {
  BAD_REQUEST: { code: 40000, status: 400, message: 'Bad request' },
  VALIDATION_FAILED: { code: 40001, status: 400, message: 'Request validation failed' },
  MALFORMED_JSON: { code: 40002, status: 400, message: 'Malformed JSON body' },
  UNKNOWN_FIELD: { code: 40003, status: 400, message: 'Unknown field in request body' },
  TENANT_REQUIRED: { code: 40004, status: 400, message: 'Several tenants have this username: send tenantId' },
  UNAUTHENTICATED: { code: 40100, status: 401, message: 'Authentication required' },
  INVALID_CREDENTIALS: { code: 40101, status: 401, message: 'Invalid username or password' },
  INVALID_TOKEN: { code: 40102, status: 401, message: 'Invalid or expired token' },
  FORBIDDEN: { code: 40300, status: 403, message: 'Permission denied' },
  TENANT_MISMATCH: { code: 40301, status: 403, message: 'X-Tenant-Id does not match the token tenant' },
  ACTION_DISABLED: { code: 40302, status: 403, message: 'This action is disabled by the process designer' },
  FIELD_NOT_WRITABLE: { code: 40303, status: 403, message: 'Some fields are not writable at this node' },
  NOT_INITIATOR: { code: 40304, status: 403, message: 'Only the initiator may do this' },
  NOT_FOUND: { code: 40400, status: 404, message: 'Not found' },
  ROUTE_NOT_FOUND: { code: 40401, status: 404, message: 'No such route' },
  METHOD_NOT_ALLOWED: { code: 40500, status: 405, message: 'Method not allowed on this path' },
  CONFLICT: { code: 40900, status: 409, message: 'Conflict' },
  INVALID_STATE: { code: 40901, status: 409, message: 'The current state does not allow this action' },
  NOT_ASSIGNEE: { code: 40902, status: 409, message: 'Only the assignee may act on this task' },
  ALREADY_EXISTS: { code: 40903, status: 409, message: 'Already exists' },
  BUSINESS_KEY_IN_USE: { code: 40904, status: 409, message: 'Business key already used by a running instance' },
  NOT_DRAFT: { code: 40905, status: 409, message: 'Only a draft can be changed' },
  IN_USE: { code: 40906, status: 409, message: 'Still in use' },
  INVALID_TARGET: { code: 40907, status: 409, message: 'Invalid target' },
  BUILTIN_FUNCTION: { code: 40940, status: 409, message: 'Built-in service functions are read-only' },
  LAST_ADMIN: { code: 40908, status: 409, message: 'The tenant would be left without an active administrator' },
  MIGRATION_REFUSED: {
    code: 40920,
    status: 409,
    message: 'The instance cannot be migrated to this version as it stands',
  },
  ALREADY_ACTED: {
    code: 40960,
    status: 409,
    message: 'Someone has already acted on what this decision started: it can no longer be recalled',
  },
  USER_HAS_OPEN_WORK: {
    code: 40970,
    status: 409,
    message: 'The user still has open work: hand it over first (POST /api/v1/users/{id}/handover)',
  },
  LINK_TASK_CLOSED: { code: 40971, status: 409, message: 'The task is closed: no approval link can be minted' },
  LINK_GONE: { code: 41070, status: 410, message: 'This approval link was used, expired or revoked' },
  LINK_INVALID: { code: 40170, status: 401, message: 'This approval link is not valid' },
  PAYLOAD_TOO_LARGE: { code: 41300, status: 413, message: 'Request body too large' },
  UNSUPPORTED_MEDIA_TYPE: { code: 41500, status: 415, message: 'Send the body as application/json' },
  DSL_INVALID: { code: 42200, status: 422, message: 'The process definition does not validate' },
  IDEMPOTENCY_KEY_REUSED: {
    code: 42201,
    status: 422,
    message: 'This Idempotency-Key was already used with another request body',
  },
  MIGRATION_TARGET_INVALID: {
    code: 42220,
    status: 422,
    message: 'The target is not a deployed version of this process',
  },
  MIGRATION_MAPPING_INVALID: { code: 42221, status: 422, message: 'The node mapping names unknown nodes' },
  FORM_INVALID: { code: 42250, status: 422, message: 'The form schema does not validate' },
  FORM_UNKNOWN: { code: 42251, status: 422, message: 'The process names a form that has no published version' },
  RATE_LIMITED: { code: 42900, status: 429, message: 'Too many requests' },
  INTERNAL: { code: 50000, status: 500, message: 'Internal error' },
  UNAVAILABLE: { code: 50300, status: 503, message: 'A dependency is unavailable' },
} as const;

export type ErrorCode = keyof typeof ErrorCodes;

export class AppError extends Error {
  readonly status: number;
  readonly code: number;
  constructor(
    readonly type: ErrorCode,
    message?: string,
    readonly data: unknown = null,
  ) {
    super(message ?? ErrorCodes[type].message);
    this.name = 'AppError';
    this.status = ErrorCodes[type].status;
    this.code = ErrorCodes[type].code;
  }
}

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && Object.hasOwn(ErrorCodes, value);
}
