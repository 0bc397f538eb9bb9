// One-time approval links (docs/task-actions.md#one-time-approval-links): minted, listed and revoked
// under /api/v1/workflow/tasks/{id}/links (logged in); shown and used under /api/v1/approve-links/{token}
// without a login, rate-limited like the login.
import type { Context } from 'hono';
import { rateLimiter } from 'hono-rate-limiter';
import { z } from '@hono/zod-openapi';
import type { AppDeps } from '../../context.js';
import { AppError } from '../../errors.js';
import { PgRateLimitStore } from '../../infra/rate-limit-store.js';
import { verifyLink } from '../../infra/link-tokens.js';
import * as links from '../../services/approval-links.js';
import { Permissions } from '../../services/permissions.js';
import { clientAddress } from '../client-address.js';
import { ErrorEnvelope, json, jsonBody, ok } from '../envelope.js';
import { createRouter, defineRoute, endpoint } from '../router.js';
import { IdParam } from './tasks.schemas.js';
import * as s from './approval-links.schemas.js';

const tags = ['approval links'];
const goneResponse = {
  description: 'Used, expired, revoked, or its task closed or moved on (`data.reason`)',
  content: { 'application/json': { schema: ErrorEnvelope } },
};

/** Mounted at /api/v1/workflow/tasks. */
export function taskLinkRoutes(deps: AppDeps) {
  const r = createRouter();
  const permissions = [Permissions.OPERATE, Permissions.ADMIN];
  endpoint(
    r,
    {
      method: 'post',
      path: '/{id}/links',
      tags,
      summary:
        'Mint a signed, single-use, expiring approve/reject link for the assignee (the assignee, or workflow:admin)',
      permissions,
      params: IdParam,
      body: s.MintLinkBody,
      optionalBody: true,
      status: 201,
      response: s.MintedLink,
      responseDescription: 'Created',
    },
    ({ principal, params, body }) => links.mintLink(deps, principal, params.id, body),
  );
  endpoint(
    r,
    {
      method: 'get',
      path: '/{id}/links',
      tags,
      summary: "The task's approval links: the caller's own, every one for workflow:admin (tokens are not shown)",
      permissions,
      params: IdParam,
      response: z.array(s.Link),
    },
    ({ principal, params }) => links.listLinks(deps, principal, params.id),
  );
  endpoint(
    r,
    {
      method: 'delete',
      path: '/{id}/links/{linkId}',
      tags,
      summary: 'Revoke an unused approval link (its user, who minted it, or workflow:admin)',
      permissions,
      params: s.LinkParams,
      response: s.Link,
    },
    ({ principal, params }) => links.revokeLink(deps, principal, params.id, params.linkId),
  );
  return r;
}

/**
 * Failed link requests counted per client address and the link's tenant (links that do not verify
 * share one count per address), for the JSON API and the link page alike.
 */
export function linkRateLimit(deps: AppDeps, onLimit: (c: Context) => Response) {
  const windowMs = deps.config.LOGIN_RATE_WINDOW_SECONDS * 1000;
  return rateLimiter({
    windowMs,
    limit: deps.config.APPROVAL_LINK_RATE_LIMIT,
    standardHeaders: 'draft-7',
    skipSuccessfulRequests: true,
    store: new PgRateLimitStore(deps.orm, windowMs),
    keyGenerator: async (c) => {
      const ip = clientAddress(c, deps.config.TRUST_PROXY_HOPS);
      const tenant = await verifyLink(deps.config, c.req.param('token') ?? '').then(
        (claims) => claims.tenantId,
        () => '-',
      );
      return `approve-link:${ip}:${tenant}`;
    },
    handler: onLimit,
  });
}

/** Mounted at /api/v1/approve-links: no login; the token is the credential. */
export function approveLinkRoutes(deps: AppDeps) {
  const r = createRouter({ secured: false });
  r.use(
    '/:token',
    linkRateLimit(deps, () => {
      throw new AppError('RATE_LIMITED', 'Too many failed approval-link requests; try again later');
    }),
  );
  // A tampered link is 401 before its body is looked at.
  r.use('/:token', async (c, next) => {
    await verifyLink(deps.config, c.req.param('token') ?? '');
    await next();
  });
  r.openapi(
    defineRoute({
      method: 'get',
      path: '/{token}',
      tags,
      secured: false,
      summary: 'What an approval link decides: the task, its instance and its visible fields (no login)',
      request: { params: s.TokenParam },
      responses: { 200: json(s.LinkView), 410: goneResponse },
    }),
    async (c) => c.json(ok(await links.viewLink(deps, c.req.valid('param').token)), 200),
  );
  r.openapi(
    defineRoute({
      method: 'post',
      path: '/{token}',
      tags,
      secured: false,
      summary: "Approve or reject through the link, as the link's user (no login; single use)",
      request: { params: s.TokenParam, body: jsonBody(s.DecideBody) },
      responses: { 200: json(s.DecideResult), 410: goneResponse },
    }),
    async (c) => c.json(ok(await links.decideLink(deps, c.req.valid('param').token, c.req.valid('json'))), 200),
  );
  return r;
}
