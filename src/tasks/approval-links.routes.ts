// One-time approval links (docs/task-actions.md#one-time-approval-links): minted, listed and revoked
// under /api/v1/workflow/tasks/{id}/links (logged in); shown and used under /api/v1/approve-links/{token}
// without a login, rate-limited like the login.
import type { Context } from 'hono';
import { rateLimiter } from 'hono-rate-limiter';
import { z } from '@hono/zod-openapi';
import type { AppDeps } from '../context.js';
import { AppError } from '../errors.js';
import { PgRateLimitStore } from '../infra/rate-limit-store.js';
import { verifyLink } from '../infra/link-tokens.js';
import * as links from './approval-links.js';
import { Permissions } from '../permissions.js';
import { clientAddress } from '../http/client-address.js';
import { countedError, ErrorEnvelope, json, jsonBody, ok, rateLimited } from '../http/envelope.js';
import { createRouter, defineRoute, endpoint } from '../http/router.js';
import { IdParam } from './tasks.schemas.js';
import * as s from './approval-links.schemas.js';

const tags = ['approval links'];
const goneResponse = {
  description: 'Used, expired, revoked, or its task closed or moved on (`data.reason`)',
  content: { 'application/json': { schema: ErrorEnvelope } },
};
/** The answers of the unauthenticated link endpoints that the budget concerns. */
const budgetResponses = (config: AppDeps['config']) => ({
  401: countedError(
    'The token does not verify (LINK_INVALID): counted against the budget of the client address (RateLimit headers)',
  ),
  429: rateLimited(
    `More than APPROVAL_LINK_RATE_LIMIT (${config.APPROVAL_LINK_RATE_LIMIT}) tokens that did not verify from this address within LOGIN_RATE_WINDOW_SECONDS (${config.LOGIN_RATE_WINDOW_SECONDS}); a token whose signature holds is never limited`,
  ),
});
const budgetDescription =
  'No login: the token is the credential. Requests whose token does not verify are counted per client address (APPROVAL_LINK_RATE_LIMIT per LOGIN_RATE_WINDOW_SECONDS, shared by every replica) and answered with `RateLimit-Policy` / `RateLimit` headers; over the budget → 429 with `Retry-After`. ' +
  'A token whose signature holds (a real link, used or expired or not) is never counted nor limited, so failed attempts from one address cannot lock anyone out of a valid link.';

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
      body: s.mintLinkBody(deps.config.APPROVAL_LINK_TTL_SECONDS),
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

/** Whether the token was signed by this service (an expired one too: its signature holds). */
async function signatureHolds(deps: AppDeps, token: string): Promise<boolean> {
  try {
    await verifyLink(deps.config, token);
    return true;
  } catch (err) {
    return err instanceof AppError && err.type === 'LINK_GONE';
  }
}

/**
 * The budget of the unauthenticated link endpoints (the JSON API and the link page alike): only tokens
 * that do not verify count, per client address. A link whose signature holds (used, expired or not)
 * is never limited, so nobody's failed attempts lock anyone out of a real link, and a forged token
 * cannot be told from another one by its answer.
 */
export function linkRateLimit(deps: AppDeps, onLimit: (c: Context) => Response) {
  const windowMs = deps.config.LOGIN_RATE_WINDOW_SECONDS * 1000;
  return rateLimiter({
    windowMs,
    limit: deps.config.APPROVAL_LINK_RATE_LIMIT,
    standardHeaders: 'draft-7',
    skip: async (c) => signatureHolds(deps, c.req.param('token') ?? ''),
    store: new PgRateLimitStore(deps.orm, windowMs),
    keyGenerator: (c) => `approve-link:${clientAddress(c, deps.config.TRUST_PROXY_HOPS)}`,
    handler: onLimit,
  });
}

/** Mounted at /api/v1/approve-links: no login; the token is the credential. */
export function approveLinkRoutes(deps: AppDeps) {
  const r = createRouter({ secured: false });
  r.use(
    '/:token',
    linkRateLimit(deps, () => {
      throw new AppError('RATE_LIMITED', 'Too many approval-link requests that did not verify; try again later');
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
      description: budgetDescription,
      request: { params: s.TokenParam },
      responses: { 200: json(s.LinkView), 410: goneResponse, ...budgetResponses(deps.config) },
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
      description: budgetDescription,
      request: { params: s.TokenParam, body: jsonBody(s.DecideBody) },
      responses: { 200: json(s.DecideResult), 410: goneResponse, ...budgetResponses(deps.config) },
    }),
    async (c) => c.json(ok(await links.decideLink(deps, c.req.valid('param').token, c.req.valid('json'))), 200),
  );
  return r;
}
