import { OpenAPIHono } from '@hono/zod-openapi';
import { bodyLimit } from 'hono/body-limit';
import { requestId } from 'hono/request-id';
import { AppError } from '../errors.js';
import { safeUrl } from '../logger.js';
import type { AppDeps, AppEnv } from './context.js';
import { notFound, onError, validationHook } from './errors.js';
import { edgeInput, methodGuard } from './input.js';
import { docsRoutes } from './docs.js';
import { healthRoutes } from './routes/health.js';
import { authRoutes } from './routes/auth.js';
import { departmentRoutes, roleRoutes, tenantRoutes, userRoutes } from './routes/directory.js';
import { extraRoutes } from './routes/index.js';

export function createApp(deps: AppDeps) {
  const app = new OpenAPIHono<AppEnv>({ defaultHook: validationHook as any });

  app.use('*', requestId());
  app.use('*', async (c, next) => {
    c.set('deps', deps);
    const started = performance.now();
    await next();
    deps.logger.info(
      { requestId: c.get('requestId'), method: c.req.method, url: safeUrl(c.req.path), status: c.res.status, ms: Math.round(performance.now() - started) },
      'request',
    );
  });
  // Before authentication: a path that exists answers 405 for a method it does not declare.
  app.use('*', methodGuard(() => app.routes));
  app.use(
    '/api/*',
    bodyLimit({
      maxSize: deps.config.BODY_LIMIT_BYTES,
      onError: () => {
        throw new AppError('PAYLOAD_TOO_LARGE', `Request body exceeds ${deps.config.BODY_LIMIT_BYTES} bytes`);
      },
    }),
  );
  app.use('/api/*', edgeInput);

  app.route('/', healthRoutes(deps));
  app.route('/', docsRoutes());
  app.route('/api/v1/auth', authRoutes(deps));
  app.route('/api/v1/users', userRoutes());
  app.route('/api/v1/departments', departmentRoutes());
  app.route('/api/v1/roles', roleRoutes());
  app.route('/api/v1/tenants', tenantRoutes());
  for (const [path, router] of extraRoutes(deps)) app.route(path, router);

  app.openAPIRegistry.registerComponent('securitySchemes', 'bearerAuth', { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' });
  app.doc31('/openapi.json', {
    openapi: '3.1.0',
    info: {
      title: 'Approval Workflow Service',
      version: '1.0.0',
      description: 'Durable approval workflows on Temporal. Every response uses the envelope {code, data, message}.',
    },
  });

  app.notFound(notFound);
  app.onError(onError);
  return app;
}

export type App = ReturnType<typeof createApp>;
