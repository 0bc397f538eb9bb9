// The one error-code catalogue. Pure: workflows import it for ApplicationFailure types.

/** Each entry: its code, then its message. A code is its HTTP status and two more digits (40901 answers 409). */
const catalogue = {
  BAD_REQUEST: [40000, 'Bad request'],
  VALIDATION_FAILED: [40001, 'Request validation failed'],
  MALFORMED_JSON: [40002, 'Malformed JSON body'],
  UNKNOWN_FIELD: [40003, 'Unknown field in request body'],
  UNAUTHENTICATED: [40100, 'Authentication required'],
  INVALID_CREDENTIALS: [40101, 'Invalid username or password'],
  INVALID_TOKEN: [40102, 'Invalid or expired token'],
  FORBIDDEN: [40300, 'Permission denied'],
  TENANT_MISMATCH: [40301, 'X-Tenant-Id does not match the token tenant'],
  ACTION_DISABLED: [40302, 'This action is disabled by the process designer'],
  FIELD_NOT_WRITABLE: [40303, 'Some fields are not writable at this node'],
  NOT_INITIATOR: [40304, 'Only the initiator may do this'],
  NOT_FOUND: [40400, 'Not found'],
  ROUTE_NOT_FOUND: [40401, 'No such route'],
  REFERENCE_NOT_FOUND: [
    40410,
    'The body names a user, role, department, definition or notification channel the tenant does not have',
  ],
  METHOD_NOT_ALLOWED: [40500, 'Method not allowed on this path'],
  CONFLICT: [40900, 'Conflict'],
  INVALID_STATE: [40901, 'The current state does not allow this action'],
  NOT_ASSIGNEE: [40902, 'Only the assignee may act on this task'],
  ALREADY_EXISTS: [40903, 'Already exists'],
  BUSINESS_KEY_IN_USE: [40904, 'Business key already used by a running instance'],
  NOT_DRAFT: [40905, 'Only a draft can be changed'],
  IN_USE: [40906, 'Still in use'],
  INVALID_TARGET: [40907, 'Invalid target'],
  USER_INACTIVE: [40909, 'The body names a user who is deactivated'],
  // The same body logs in while one tenant has the username: the directory's state, not the body, refuses it.
  TENANT_REQUIRED: [40910, 'Several tenants have this username: send tenantId'],
  BUILTIN_FUNCTION: [40940, 'Built-in service functions are read-only'],
  LAST_ADMIN: [40908, 'The tenant would be left without an active administrator'],
  MIGRATION_REFUSED: [40920, 'The instance cannot be migrated to this version as it stands'],
  ALREADY_ACTED: [40960, 'Someone has already acted on what this decision started: it can no longer be recalled'],
  USER_HAS_OPEN_WORK: [40970, 'The user still has open work: hand it over first (POST /api/v1/users/{id}/handover)'],
  LINK_TASK_CLOSED: [40971, 'The task is closed: no approval link can be minted'],
  LINK_GONE: [41070, 'This approval link was used, expired or revoked'],
  LINK_INVALID: [40170, 'This approval link is not valid'],
  PAYLOAD_TOO_LARGE: [41300, 'Request body too large'],
  UNSUPPORTED_MEDIA_TYPE: [41500, 'Send the body as application/json'],
  DSL_INVALID: [42200, 'The process definition does not validate'],
  IDEMPOTENCY_KEY_REUSED: [42201, 'This Idempotency-Key was already used with another request body'],
  MIGRATION_TARGET_INVALID: [42220, 'The target is not a deployed version of this process'],
  UPGRADE_REQUIRED: [42600, 'This endpoint speaks WebSocket: send a GET with Upgrade: websocket'],
  MIGRATION_MAPPING_INVALID: [42221, 'The node mapping names unknown nodes'],
  FORM_INVALID: [42250, 'The form schema does not validate'],
  FORM_UNKNOWN: [42251, 'The process names a form that has no published version'],
  TEMPLATE_INVALID: [
    42260,
    'The message template does not parse, or names a variable or filter a message does not have',
  ],
  // The body is well formed, but the channel or the world refuses it: a host that does not resolve or that the
  // outbound network rules refuse, a kind that cannot change, an address that does not suit the channel's kind.
  CHANNEL_REFUSED: [42270, 'The notification channel cannot take this'],
  // Loopback, link-local, metadata, unspecified and other special addresses are never a tenant's to open.
  ALLOWLIST_REFUSED: [42280, 'The network allowlist cannot open this address'],
  // Rule chains (docs/rule-chains.md).
  CHAIN_INVALID: [42290, 'The rule chain does not validate'],
  CHAIN_STOPPED: [40980, 'The rule chain is stopped: start it first'],
  CHAIN_RUN_FAILED: [40090, 'The rule chain ran and failed'],
  HOOK_SIGNATURE_INVALID: [40190, 'The hook request is not signed with this chain’s secret'],
  // Attachments (docs/attachments.md).
  ATTACHMENT_TOO_LARGE: [41310, 'The file is larger than the limit'],
  ATTACHMENT_REFUSED: [42295, 'The file is not accepted here'],
  ATTACHMENT_INFECTED: [42296, 'The virus scan found malware in the file'],
  RANGE_NOT_SATISFIABLE: [41600, 'The range is outside the file'],
  ATTACHMENT_ATTACHED: [40991, 'The file is attached to a request already'],
  RATE_LIMITED: [42900, 'Too many requests'],
  INTERNAL: [50000, 'Internal error'],
  UNAVAILABLE: [50300, 'A dependency is unavailable'],
} as const satisfies Record<string, readonly [code: number, message: string]>;

export type ErrorCode = keyof typeof catalogue;

export interface ErrorInfo {
  code: number;
  status: number;
  message: string;
}

export const ErrorCodes = Object.fromEntries(
  Object.entries(catalogue).map(([type, [code, message]]) => [type, { code, status: Math.floor(code / 100), message }]),
) as Readonly<Record<ErrorCode, Readonly<ErrorInfo>>>;

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

/** A body field naming something the tenant does not have, or a user who is deactivated. */
export interface ReferenceProblem {
  path: string;
  message: string;
}

/**
 * The one answer to a body that names users, roles, departments or definitions that do not fit
 * (docs/http.md "Limits"): 404 REFERENCE_NOT_FOUND when something named does not exist, else 409
 * USER_INACTIVE for a deactivated user; `data.fields` names every field.
 */
export function referenceError(missing: ReferenceProblem[], inactive: ReferenceProblem[] = []): AppError | null {
  const all = [...missing, ...inactive];
  if (!all.length) return null;
  const message = all.map((f) => `${f.path}: ${f.message}`).join('; ');
  return new AppError(missing.length ? 'REFERENCE_NOT_FOUND' : 'USER_INACTIVE', message, { fields: all });
}

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && Object.hasOwn(ErrorCodes, value);
}
