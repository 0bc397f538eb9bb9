import { z } from 'zod';

const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

const port = z.coerce.number().int().min(0).max(65535);

/** Every environment variable the service reads, validated once at start. */
export const configSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  HOST: z.string().default('127.0.0.1'),
  PORT: port.default(3000),
  DATA_DIR: z.string().default('.data'),

  DATABASE_URL: z.url().optional(),
  EMBEDDED_PG_PORT: port.default(54329),

  TEMPORAL_ADDRESS: z.string().optional(),
  TEMPORAL_NAMESPACE: z.string().min(1).default('default'),
  TEMPORAL_TASK_QUEUE: z.string().min(1).default('approvals'),
  TEMPORAL_API_KEY: z.string().optional(),
  TEMPORAL_TLS: bool.default(false),
  TEMPORAL_CLI: z.string().optional(),
  TEMPORAL_PORT: port.default(7233),
  TEMPORAL_UI_PORT: port.default(8233),
  WORKFLOW_BUNDLE_PATH: z.string().optional(),
  /** History events after which an instance continues as new (carrying its state). */
  WORKFLOW_HISTORY_LIMIT: z.coerce.number().int().min(50).default(2000),
  /**
   * Workflow runs the worker keeps in memory (sticky cache). Unbounded growth was ~1.4 MB per
   * instance; an evicted run is rebuilt by replaying its (short, continued-as-new) history.
   */
  WORKER_MAX_CACHED_WORKFLOWS: z.coerce.number().int().min(1).default(250),
  /**
   * Stack frames kept per stack in the worker's workflow threads: the SDK captures and
   * source-maps a stack for every promise a workflow creates, at a cost per frame.
   */
  WORKFLOW_STACK_TRACE_LIMIT: z.coerce.number().int().min(1).max(100).default(6),
  /**
   * Time a call into a workflow thread's V8 context may take before the SDK aborts it; 0 (the
   * default): no limit, since Node starts a watchdog thread for every call that has one
   * (src/main/workflow-worker.ts). The interpreter's step budget bounds flows that never wait.
   */
  WORKFLOW_VM_TIMEOUT_MS: z.coerce.number().int().min(0).max(4_294_967_295).default(0),
  /**
   * The SDK's stack tracking in the workflow threads, for the Web UI's Stack Trace tab: a stack
   * captured for every promise a workflow creates. Off by default (src/main/workflow-worker.ts);
   * turn it on and restart the worker to see where a run's code waits.
   */
  WORKFLOW_STACK_TRACES: bool.default(false),
  /**
   * Threads the worker runs workflow code on; 0 (the default): its main thread, without a
   * message between threads per activation (src/main/workflow-worker.ts).
   */
  WORKFLOW_THREADS: z.coerce.number().int().min(0).max(64).default(0),
  /** Workflow tasks run at once (capped at the cache size). */
  WORKER_MAX_CONCURRENT_WORKFLOW_TASKS: z.coerce.number().int().min(1).default(10),
  /** Activities (projection, http calls) and local activities (directory look-ups) run at once, each. */
  WORKER_MAX_CONCURRENT_ACTIVITIES: z.coerce.number().int().min(1).default(20),

  JWT_SECRET: z.string().min(32, 'JWT_SECRET must be at least 32 characters').optional(),
  JWT_ISSUER: z.string().default('approval-service'),
  JWT_AUDIENCE: z.string().default('approval-api'),
  JWT_TTL_SECONDS: z.coerce.number().int().positive().default(3600),
  OIDC_JWKS_URL: z.url().optional(),
  OIDC_ISSUER: z.string().optional(),
  OIDC_AUDIENCE: z.string().optional(),

  ADMIN_PASSWORD: z.string().min(1).default('admin'),
  DEMO_PASSWORD: z.string().min(1).default('demo'),
  SEED_DEMO: bool.default(true),

  BODY_LIMIT_BYTES: z.coerce
    .number()
    .int()
    .positive()
    .default(1024 * 1024),
  LOGIN_RATE_LIMIT: z.coerce.number().int().positive().default(10),
  LOGIN_RATE_WINDOW_SECONDS: z.coerce.number().int().positive().default(60),
  /**
   * Reverse proxies in front of the server that append to X-Forwarded-For. 0: the header is
   * ignored (anyone can write it) and the socket address is the client; N: the Nth address from
   * the right is the client.
   */
  TRUST_PROXY_HOPS: z.coerce.number().int().min(0).max(32).default(0),

  /** Instances a user handover updates at once (docs/task-actions.md#handing-over-a-leavers-work). */
  HANDOVER_CONCURRENCY: z.coerce.number().int().min(1).max(32).default(4),
  /** Key that signs one-time approval links; the JWT_SECRET when unset (docs/task-actions.md#one-time-approval-links). */
  APPROVAL_LINK_SECRET: z.string().min(32, 'APPROVAL_LINK_SECRET must be at least 32 characters').optional(),
  /** How long a minted approval link stays usable. */
  APPROVAL_LINK_TTL_SECONDS: z.coerce
    .number()
    .int()
    .positive()
    .default(3 * 24 * 3600),
  /** Failed approval-link requests allowed per client address and window (like LOGIN_RATE_LIMIT). */
  APPROVAL_LINK_RATE_LIMIT: z.coerce.number().int().positive().default(20),

  /** The address people reach the server at, for links in e-mails and chat messages; default http://HOST:PORT. */
  PUBLIC_URL: z.url({ protocol: /^https?$/ }).optional(),
  /** Whether this worker also runs the notification dispatcher (docs/channels.md). */
  NOTIFY_DISPATCHER: bool.default(true),
  /** The worker also sweeps write-ahead intents (src/read-model/projection-sweeper.ts). */
  PROJECTION_SWEEP: bool.default(true),
  /** An intent this old (ms) is a write that may be missing: the sweeper writes the instance. */
  PROJECTION_SWEEP_GRACE_MS: z.coerce.number().int().min(100).default(5000),
  /** How often (ms) the sweeper looks for such intents. */
  PROJECTION_SWEEP_INTERVAL_MS: z.coerce.number().int().min(50).default(2000),
  /** /readyz: the time limit (ms) of each dependency check (PostgreSQL, Temporal); past it the check counts as failed. */
  READY_CHECK_TIMEOUT_MS: z.coerce.number().int().min(10).max(10_000).default(500),
  /** /readyz: how long (ms) a check's result is reused before the dependency is asked again (0: every request). */
  READY_CACHE_MS: z.coerce.number().int().min(0).max(60_000).default(1000),
  /**
   * Starts write the first state the server predicts and answer without waiting for a worker
   * (docs/engine.md "A start that does not wait"). Off: every start waits for the workflow's
   * answer, as before issue 48 (kept for measuring the two in pairs).
   */
  START_PREDICTED: bool.default(true),
  /** Deliveries one dispatcher claims at a time and sends at once. */
  NOTIFY_CONCURRENCY: z.coerce.number().int().min(1).max(100).default(8),
  /** Attempts per delivery in all; after the last it is `failed` in the delivery log. */
  NOTIFY_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(50).default(6),
  /** First retry delay; doubled per attempt, at most NOTIFY_RETRY_MAX_MS. */
  NOTIFY_RETRY_BASE_MS: z.coerce.number().int().min(10).default(30_000),
  NOTIFY_RETRY_MAX_MS: z.coerce.number().int().min(10).default(3_600_000),
  /** How long a claim is held: a dispatcher that died is relieved of its deliveries after this. */
  NOTIFY_LEASE_SECONDS: z.coerce.number().int().min(1).max(3600).default(120),
  /** Time limit of one send (SMTP conversation, webhook request). */
  NOTIFY_SEND_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(30_000),
  /** How often an idle dispatcher looks for due retries (a NOTIFY wakes it at once for new ones). */
  NOTIFY_POLL_MS: z.coerce.number().int().min(50).default(5_000),
  /** Days the delivery log keeps sent, skipped and failed deliveries. */
  NOTIFY_LOG_RETENTION_DAYS: z.coerce.number().int().min(1).default(30),

  /** A listener serving only /metrics (server and worker); unset: no listener (docs/operations.md "Metrics"). */
  METRICS_PORT: port.optional(),
  /** Where that listener binds; the loopback interface by default, so it is not public unless asked. */
  METRICS_HOST: z.string().default('127.0.0.1'),
  /** When set, a scrape must send `Authorization: Bearer <token>`, and the server also answers GET /metrics on PORT. */
  METRICS_TOKEN: z.string().min(16).optional(),
  /** OTLP/HTTP endpoint of a trace receiver (http://collector:4318); unset: no tracing at all. */
  OTEL_EXPORTER_OTLP_ENDPOINT: z.url({ protocol: /^https?$/ }).optional(),
  OTEL_SERVICE_NAME: z.string().min(1).default('approval-service'),

  /**
   * Where the rule-engine API is mounted (RuleGo-Server's routes under `<prefix>/api/v1`,
   * docs/rule-chains.md): starts with `/`, no trailing slash.
   */
  RULE_ENGINE_PREFIX: z
    .string()
    .regex(
      /^(\/(?!\.{1,2}(\/|$))[A-Za-z0-9._~-]+)+$/,
      'RULE_ENGINE_PREFIX must start with / and not end with one (e.g. /rulego)',
    )
    .default('/rulego'),

  // Attachments (docs/attachments.md): the store, its limits (tenant settings may lower or raise
  // them per tenant), the sweeper and the virus scan.
  ATTACHMENT_STORE: z.enum(['disk', 's3']).default('disk'),
  /** The disk store's folder (default: DATA_DIR/attachments). */
  ATTACHMENT_DIR: z.string().optional(),
  S3_ENDPOINT: z.url({ protocol: /^https?$/ }).optional(),
  S3_BUCKET: z.string().min(3).max(63).optional(),
  S3_REGION: z.string().min(1).default('us-east-1'),
  S3_ACCESS_KEY_ID: z.string().optional(),
  S3_SECRET_ACCESS_KEY: z.string().optional(),
  /** Path-style addressing (MinIO, SeaweedFS, Ceph); AWS S3 wants virtual-hosted style. */
  S3_FORCE_PATH_STYLE: bool.default(false),
  ATTACHMENT_MAX_FILE_BYTES: z.coerce
    .number()
    .int()
    .positive()
    .default(25 * 1024 * 1024),
  ATTACHMENT_MAX_FILES_PER_INSTANCE: z.coerce.number().int().positive().default(50),
  ATTACHMENT_MAX_TENANT_BYTES: z.coerce
    .number()
    .int()
    .positive()
    .default(10 * 1024 * 1024 * 1024),
  /** Files uploaded but never attached are removed after this long. */
  ATTACHMENT_ORPHAN_HOURS: z.coerce.number().positive().default(24),
  ATTACHMENT_SWEEP_INTERVAL_MS: z.coerce.number().int().min(100).default(60_000),
  /** Signed URLs the console and the API answer with (previews, downloads). */
  ATTACHMENT_URL_TTL_SECONDS: z.coerce.number().int().min(10).max(86_400).default(900),
  /** Signed links in e-mail and chat messages. */
  ATTACHMENT_MESSAGE_LINK_TTL_SECONDS: z.coerce
    .number()
    .int()
    .min(60)
    .max(30 * 86_400)
    .default(7 * 86_400),
  /** clamd (host[:port], port 3310 by default): with it set, every upload is scanned before it can be attached. */
  CLAMAV_HOST: z.string().optional(),
  CLAMAV_TIMEOUT_MS: z.coerce.number().int().min(100).default(30_000),

  HTTP_CALL_ALLOW_PRIVATE: bool.default(false),
  /** Host names an httpCall may reach even though they resolve to private addresses. */
  HTTP_CALL_ALLOW_PRIVATE_HOSTS: z.string().default(''),
  HTTP_CALL_MAX_RESPONSE_BYTES: z.coerce
    .number()
    .int()
    .positive()
    .default(1024 * 1024),
});

export type Config = z.infer<typeof configSchema>;

/** Where people reach the server (links in messages). */
export const publicUrl = (config: Config) =>
  (
    config.PUBLIC_URL ?? `http://${config.HOST.includes(':') ? `[${config.HOST}]` : config.HOST}:${config.PORT}`
  ).replace(/\/+$/, '');

export class ConfigError extends Error {}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = configSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const config = parsed.data;
  if (config.NODE_ENV === 'production') {
    const problems: string[] = [];
    if (!env.ADMIN_PASSWORD || config.ADMIN_PASSWORD === 'admin')
      problems.push('ADMIN_PASSWORD must be set to a non-default value');
    if (config.SEED_DEMO && (!env.DEMO_PASSWORD || config.DEMO_PASSWORD === 'demo'))
      problems.push('DEMO_PASSWORD must be set to a non-default value (or SEED_DEMO=false)');
    if (!config.JWT_SECRET && !config.OIDC_JWKS_URL) problems.push('JWT_SECRET (or OIDC_JWKS_URL) must be set');
    if (!config.DATABASE_URL) problems.push('DATABASE_URL must be set');
    if (!config.TEMPORAL_ADDRESS) problems.push('TEMPORAL_ADDRESS must be set');
    if (problems.length) throw new ConfigError(`Refusing to start in production:\n  ${problems.join('\n  ')}`);
  }
  if (config.OIDC_JWKS_URL && (!config.OIDC_ISSUER || !config.OIDC_AUDIENCE)) {
    throw new ConfigError('Invalid configuration:\n  OIDC_ISSUER and OIDC_AUDIENCE are required with OIDC_JWKS_URL');
  }
  return config;
}
