import type { OpenAPIHono } from '@hono/zod-openapi';
import type { AppDeps, Principal } from '../context.js';

export type AppEnv = {
  Variables: {
    deps: AppDeps;
    principal: Principal;
    requestId: string;
  };
};

export type Router = OpenAPIHono<AppEnv>;
