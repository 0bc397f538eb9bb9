import * as allowlist from './network-allowlist.js';
import { Permissions } from '../permissions.js';
import { createRouter, endpoint } from '../http/router.js';
import { em } from '../http/middleware/auth.js';
import * as s from './network-allowlist.schemas.js';

const tags = ['network-allowlist'];

/** `/api/v1/network-allowlist` — the private hosts and CIDRs the tenant's outbound calls may reach. */
export function networkAllowlistRoutes() {
  const r = createRouter();
  endpoint(
    r,
    {
      method: 'get',
      path: '/',
      tags,
      summary: 'The private hosts and CIDRs the tenant’s httpCall, webhook and AI agent calls may reach',
      permissions: [Permissions.ADMIN],
      response: s.Allowlist,
    },
    ({ principal, c }) => allowlist.getAllowlist(em(c), principal.tenantId),
  );
  endpoint(
    r,
    {
      method: 'put',
      path: '/',
      tags,
      summary: 'Replace the tenant’s private-address allowlist',
      permissions: [Permissions.ADMIN],
      body: s.AllowlistBody,
      response: s.Allowlist,
    },
    ({ principal: p, body, c }) => allowlist.replaceAllowlist(em(c), p.tenantId, p.userId, body.entries),
  );
  return r;
}
