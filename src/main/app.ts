import { OpenAPIHono } from '@hono/zod-openapi';
import type { Hono, MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { requestId } from 'hono/request-id';
import { AppError } from '../errors.js';
import { safeUrl } from '../observability/logger.js';
import type { AppDeps } from '../context.js';
import type { AppEnv } from '../http/context.js';
import { notFound, onError, validationHook } from '../http/errors.js';
import { dotSegments, edgeInput, methodGuard } from '../http/input.js';
import { docsRoutes } from '../http/docs.js';
import { documentDescription, exactDocument } from '../http/openapi.js';
import { healthRoutes } from '../http/health.routes.js';
import { metricsRoutes } from '../http/metrics.routes.js';
import { httpTelemetry } from '../observability/http-telemetry.js';
import { authRoutes } from '../directory/auth.routes.js';
import { departmentRoutes, roleRoutes, tenantRoutes, userRoutes } from '../directory/directory.routes.js';
import { componentRoutes } from '../definitions/components.routes.js';
import { definitionRoutes } from '../definitions/definitions.routes.js';
import { serviceFunctionRoutes } from '../definitions/service-functions.routes.js';
import { aiAgentRoutes } from '../definitions/ai-agents.routes.js';
import { networkAllowlistRoutes } from '../directory/network-allowlist.routes.js';
import { formRoutes } from '../definitions/forms.routes.js';
import { instanceAdminRoutes } from '../instances/instance-admin.routes.js';
import { instanceMigrationRoutes } from '../instances/instance-migration.routes.js';
import { instanceRoutes } from '../instances/instances.routes.js';
import { monitoringRoutes } from '../instances/monitoring.routes.js';
import { myTaskListRoutes, taskRoutes } from '../tasks/tasks.routes.js';
import { taskActionRoutes } from '../tasks/task-actions.routes.js';
import { approveLinkRoutes, taskLinkRoutes } from '../tasks/approval-links.routes.js';
import { taskBatchRoutes } from '../tasks/task-batch.routes.js';
import { notificationRoutes, notificationSocketDocRoutes } from '../notifications/inbox.routes.js';
import { notificationChannelRoutes, notificationDeliveryRoutes } from '../notifications/channels.routes.js';
import { notificationTemplateRoutes } from '../notifications/templates/templates.routes.js';
import { meRoutes } from '../directory/me.routes.js';
import { notificationPreferenceRoutes } from '../notifications/preferences.routes.js';
import { tenantSettingsRoutes } from '../directory/tenant-settings.routes.js';
import { chainRoutes } from '../rule-chains/chains.routes.js';
import { runLogRoutes } from '../rule-chains/logs.routes.js';
import { ruleGoComponentRoutes } from '../rule-chains/components.routes.js';
import { ruleGoSkillRoutes, skillRoutes } from '../rule-chains/skills.routes.js';
import { ruleGoErrorField } from '../rule-chains/rulego-http.js';
import { hookRoutes } from '../rule-chains/hooks.routes.js';
import { attachmentRoutes, instanceAttachmentRoutes } from '../attachments/attachments.routes.js';

const V1 = '/api/v1';
const INSTANCES = `${V1}/workflow/process-instances`;
const TASKS = `${V1}/workflow/tasks`;

/**
 * Every router and where it is mounted, in one list. Order matters where routers share a base
 * path: one whose literal paths (`/stuck`, `/statistics`) would otherwise match another's `/{id}`
 * comes first.
 */
function routers(deps: AppDeps): Array<[path: string, router: Hono<any, any, any>]> {
  // The rule engine's API (docs/rule-chains.md): RuleGo-Server's routes and answer shapes.
  const RULES = `${deps.config.RULE_ENGINE_PREFIX}${V1}`;
  return [
    ['/', healthRoutes(deps)],
    ['/', metricsRoutes(deps)],
    ['/', docsRoutes()],
    [`${V1}/auth`, authRoutes(deps)],
    [`${V1}/me`, meRoutes()],
    [`${V1}/me`, notificationPreferenceRoutes()],
    [`${V1}/users`, userRoutes()],
    [`${V1}/departments`, departmentRoutes()],
    [`${V1}/roles`, roleRoutes()],
    [`${V1}/tenants`, tenantRoutes()],
    [`${V1}/tenant-settings`, tenantSettingsRoutes()],
    [`${V1}/workflow/process-definitions`, definitionRoutes()],
    [`${V1}/forms`, formRoutes()],
    [`${V1}/components`, componentRoutes()],
    [`${V1}/service-functions`, serviceFunctionRoutes()],
    [`${V1}/ai-agents`, aiAgentRoutes()],
    [`${V1}/network-allowlist`, networkAllowlistRoutes()],
    [INSTANCES, instanceAdminRoutes(deps)], // before /{id}: /stuck, /batch
    [INSTANCES, instanceMigrationRoutes(deps)], // before /{id}: /migrate
    [INSTANCES, myTaskListRoutes(deps)], // before /{id}: /todo, /done
    [INSTANCES, instanceRoutes(deps)],
    [INSTANCES, instanceAttachmentRoutes(deps)],
    [`${V1}/attachments`, attachmentRoutes(deps)], // a signed URL's token reads one file without a login
    [TASKS, monitoringRoutes(deps)], // before /{id}: /statistics, /overdue, /backlog
    [TASKS, taskBatchRoutes(deps)], // before /{id}/approve: /batch/approve
    [TASKS, taskRoutes(deps)],
    [TASKS, taskActionRoutes(deps)],
    [TASKS, taskLinkRoutes(deps)],
    [`${V1}/approve-links`, approveLinkRoutes(deps)], // no login: the signed link is the credential
    [`${V1}/notifications`, notificationRoutes()],
    [`${V1}/notification-channels`, notificationChannelRoutes(deps)],
    [`${V1}/notification-deliveries`, notificationDeliveryRoutes()],
    [`${V1}/notification-templates`, notificationTemplateRoutes(deps)],
    [`${V1}/skills`, skillRoutes()],
    [`${RULES}/rules`, chainRoutes(deps)],
    [`${RULES}/logs`, runLogRoutes(deps)],
    [`${RULES}/components`, ruleGoComponentRoutes()],
    [`${RULES}/skills`, ruleGoSkillRoutes()],
    [`${RULES}/hooks`, hookRoutes(deps, `${RULES}/hooks`)], // no login: the chain's hook secret (or a JWT) is the credential
    [`${V1}/ws`, notificationSocketDocRoutes()], // documents the WebSocket served by ./notification-socket.ts
    ['/l', linkPageRoutes(deps)], // the HTML page of a one-time approval link (no login)
  ];
}
import { uiStatic } from '../http/ui-static.js';
import { linkPageRoutes } from '../tasks/link-page.js';

/**
 * BODY_LIMIT_BYTES, from the headers where they tell: an HTTP/1.1 request has a body only with a
 * Content-Length or a Transfer-Encoding, so only a chunked body is counted as it is read (Hono's
 * bodyLimit). Hono's middleware alone reads `raw.body` first, which makes @hono/node-server build
 * a full fetch Request with a stream for every request, GETs included (about 4 % of the server's
 * CPU in the bench).
 */
function bodyLimitFor(maxSize: number): MiddlewareHandler {
  // An upload streams to the attachment store under its own limits (src/attachments/upload.ts).
  const streamed = (c: Parameters<MiddlewareHandler>[0]) =>
    c.req.method === 'POST' && c.req.path === `${V1}/attachments`;
  const tooLarge = () => {
    throw new AppError('PAYLOAD_TOO_LARGE', `Request body exceeds ${maxSize} bytes`);
  };
  const counted = bodyLimit({ maxSize, onError: tooLarge });
  return async (c, next) => {
    if (streamed(c)) return next();
    if (c.req.header('transfer-encoding') !== undefined) return counted(c, next);
    const length = c.req.header('content-length');
    if (length !== undefined && Number(length) > maxSize) tooLarge();
    await next();
  };
}

export function createApp(deps: AppDeps) {
  const app = new OpenAPIHono<AppEnv>({ defaultHook: validationHook as any });

  app.use('*', requestId());
  // Metrics by route template and the request's server span (src/observability/).
  app.use('*', httpTelemetry());
  app.use('*', async (c, next) => {
    c.set('deps', deps);
    const started = performance.now();
    await next();
    // The line's fields are built only when it is written (LOG_LEVEL=warn and up skip it).
    if (deps.logger.isLevelEnabled('info'))
      deps.logger.info(
        {
          requestId: c.get('requestId'),
          method: c.req.method,
          url: safeUrl(c.req.path),
          status: c.res.status,
          ms: Math.round(performance.now() - started),
        },
        'request',
      );
  });
  // The rule engine's API under its prefix gets the same edge as /api (docs/rule-chains.md).
  const edges = ['/api/*', `${deps.config.RULE_ENGINE_PREFIX}/api/*`];
  // Outermost there: every error answer of the rule engine's API carries RuleGo's `error` field.
  app.use(`${deps.config.RULE_ENGINE_PREFIX}/api/*`, ruleGoErrorField);
  // Before the 405 guard, which sees the path after URL normalisation removed its dot segments.
  for (const edge of edges) app.use(edge, dotSegments);
  // Before authentication: a path that exists answers 405 for a method it does not declare.
  app.use(
    '*',
    methodGuard(() => app.routes),
  );
  for (const edge of edges) {
    app.use(edge, bodyLimitFor(deps.config.BODY_LIMIT_BYTES));
    app.use(edge, edgeInput);
    // Answers carry one user's data: no browser or proxy may keep them (a shared PC, the back button).
    app.use(edge, async (c, next) => {
      await next();
      if (!c.res.headers.has('Cache-Control')) c.res.headers.set('Cache-Control', 'no-store');
    });
  }

  for (const [path, router] of routers(deps)) app.route(path, router);

  app.openAPIRegistry.registerComponent('securitySchemes', 'bearerAuth', {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'JWT',
  });
  app.openAPIRegistry.registerComponent('securitySchemes', 'metricsToken', {
    type: 'http',
    scheme: 'bearer',
    description: 'The METRICS_TOKEN the server runs with (GET /metrics only)',
  });
  // How the words of an answer are chosen (docs/http.md "Languages"): one shared parameter, named by the info.
  app.openAPIRegistry.registerComponent('parameters', 'AcceptLanguage', {
    name: 'Accept-Language',
    in: 'header',
    required: false,
    description:
      "The language of an answer's words (the error envelope's `message`, field-error and validation-problem messages, assignment reasons): zh, zh-CN or zh-Hans ask for Simplified Chinese, en for English. It counts after the signed-in user's own `locale` and before the tenant's default language (GET /tenant-settings). `code`, `params` and every machine-readable field are the same in every language. Error answers carry Content-Language.",
    schema: { type: 'string', example: 'zh-CN,zh;q=0.9,en;q=0.8' },
  });
  // Built once, on the first request (every route is registered by then).
  let document: object | null = null;
  app.get('/openapi.json', (c) => {
    document ??= exactDocument(
      app.getOpenAPI31Document({
        openapi: '3.1.0',
        info: {
          title: 'Approval Workflow Service',
          version: '1.0.0',
          description: documentDescription(deps.config.BODY_LIMIT_BYTES),
        },
      }),
    );
    return c.json(document);
  });

  // The web console (ui/dist) at `/`; after every route, so only paths no route answered reach it.
  app.use(
    '*',
    uiStatic({
      temporalUiUrl: process.env.TEMPORAL_UI_URL ?? null,
      namespace: deps.config.TEMPORAL_NAMESPACE,
      ruleEnginePrefix: deps.config.RULE_ENGINE_PREFIX,
    }),
  );

  app.notFound(notFound);
  app.onError(onError);
  return app;
}

export type App = ReturnType<typeof createApp>;
