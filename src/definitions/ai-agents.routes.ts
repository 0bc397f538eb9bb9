import * as agents from './ai-agents.js';
import { Permissions } from '../permissions.js';
import { PageQuery } from '../paging.js';
import { page } from '../http/envelope.js';
import { createRouter, endpoint } from '../http/router.js';
import { em } from '../http/middleware/auth.js';
import * as s from './ai-agents.schemas.js';
import { deleteEndpoint } from '../http/shared-endpoints.js';

const tags = ['ai-agents'];
const { ADMIN } = Permissions;
/** Designers read the catalogue to name agents; only workflow:admin changes it (it decides where data goes). */
const READERS = [Permissions.ADMIN, Permissions.DEFINITION_READ, Permissions.DEFINITION_WRITE];

/** `/api/v1/ai-agents` — the tenant's agents catalogue for aiAgent nodes (docs/ai-review.md). */
export function aiAgentRoutes() {
  const r = createRouter();
  endpoint(
    r,
    {
      method: 'get',
      path: '/',
      tags,
      summary: 'The tenant’s AI agents (OpenAI-compatible endpoints aiAgent nodes name)',
      permissions: READERS,
      query: PageQuery,
      response: page(s.AiAgent),
    },
    ({ principal, query, c }) => agents.listAgents(em(c), principal.tenantId, query),
  );
  endpoint(
    r,
    {
      method: 'get',
      path: '/{agentId}',
      tags,
      summary: 'One AI agent',
      permissions: READERS,
      params: s.AgentIdParam,
      response: s.AiAgent,
    },
    ({ principal, params, c }) => agents.getAgent(em(c), principal.tenantId, params.agentId),
  );
  endpoint(
    r,
    {
      method: 'post',
      path: '/',
      tags,
      summary: 'Register an AI agent',
      permissions: [ADMIN],
      body: s.AgentBody,
      status: 201,
      response: s.AiAgent,
      responseDescription: 'Created',
    },
    ({ principal: p, body, c }) => agents.createAgent(em(c), p.tenantId, p.userId, body),
  );
  endpoint(
    r,
    {
      method: 'put',
      path: '/{agentId}',
      tags,
      summary: 'Replace an AI agent (the API key stays unless one is sent)',
      permissions: [ADMIN],
      params: s.AgentIdParam,
      body: s.AgentUpdateBody,
      response: s.AiAgent,
    },
    ({ principal: p, params, body, c }) => agents.updateAgent(em(c), p.tenantId, p.userId, params.agentId, body),
  );
  deleteEndpoint(
    r,
    {
      path: '/{agentId}',
      tags,
      summary: 'Remove an AI agent (409 while an active definition uses it)',
      permissions: [ADMIN],
      params: s.AgentIdParam,
    },
    ({ principal, params, c }) => agents.deleteAgent(em(c), principal.tenantId, params.agentId),
  );
  return r;
}
