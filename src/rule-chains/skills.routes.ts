// Skills: `/api/v1/skills` in our envelope, and `${RULE_ENGINE_PREFIX}/api/v1/skills` in RuleGo's shapes.
import { z } from '@hono/zod-openapi';
import { PageQuery } from '../paging.js';
import { page } from '../http/envelope.js';
import { createRouter, endpoint } from '../http/router.js';
import { em } from '../http/middleware/auth.js';
import { deleteEndpoint } from '../http/shared-endpoints.js';
import * as skills from './skills.js';
import * as s from './skills.schemas.js';
import { sizePage } from './chains.schemas.js';
import {
  guard,
  noContent,
  rawJson,
  RuleGoPermissions as P,
  ruleGoRoute,
  ruleGoRouter,
  SizePageQuery,
} from './rulego-http.js';

const tags = ['skills'];
const readers = [...P.skillRead];
const writers = [...P.skillWrite];

/** `/api/v1/skills`: the envelope and our paging. */
export function skillRoutes() {
  const r = createRouter();
  endpoint(
    r,
    {
      method: 'get',
      path: '/',
      tags,
      summary: 'The tenant’s skills, by name',
      permissions: readers,
      query: PageQuery,
      response: page(s.Skill),
    },
    async ({ principal, query, c }) => ({
      ...(await skills.listSkills(em(c), principal.tenantId, query.page, query.pageSize)),
      page: query.page,
      pageSize: query.pageSize,
    }),
  );
  endpoint(
    r,
    {
      method: 'get',
      path: '/{name}',
      tags,
      summary: 'One skill',
      permissions: readers,
      params: s.NameParam,
      response: s.Skill,
    },
    ({ principal, params, c }) => skills.getSkill(em(c), principal.tenantId, params.name),
  );
  endpoint(
    r,
    {
      method: 'post',
      path: '/',
      tags,
      summary: 'Add a skill',
      permissions: writers,
      body: s.SkillCreate,
      status: 201,
      response: s.Skill,
      responseDescription: 'Created',
    },
    ({ principal: p, body, c }) => skills.createSkill(em(c), p.tenantId, p.userId, body.name, body),
  );
  endpoint(
    r,
    {
      method: 'put',
      path: '/{name}',
      tags,
      summary: 'Replace a skill’s description and content',
      permissions: writers,
      params: s.NameParam,
      body: s.SkillUpdate,
      response: s.Skill,
    },
    ({ principal: p, params, body, c }) => skills.updateSkill(em(c), p.tenantId, p.userId, params.name, body),
  );
  deleteEndpoint(
    r,
    {
      path: '/{name}',
      tags,
      summary: 'Remove a skill (409 IN_USE while a chain’s aiAgent names it)',
      permissions: writers,
      params: s.NameParam,
    },
    ({ principal, params, c }) => skills.deleteSkill(em(c), principal.tenantId, params.name),
  );
  return r;
}

const ruleGoTags = ['rule chain skills'];
/** RuleGo's skill root (its file path there; the tenant's store here). */
const SKILL_PATH = 'db:skills';

/** `${RULE_ENGINE_PREFIX}/api/v1/skills`: the same store in RuleGo's shapes. */
export function ruleGoSkillRoutes() {
  const r = ruleGoRouter();
  r.openapi(
    ruleGoRoute({
      method: 'get',
      path: '/',
      tags: ruleGoTags,
      summary: 'The tenant’s skills (RuleGo’s page: path, total, page, size, items)',
      middleware: guard(...readers),
      request: { query: s.ScopeQuery.extend(SizePageQuery) },
      responses: { 200: rawJson(sizePage(s.Skill).extend({ path: z.string() })) },
    }),
    async (c) => {
      const { page: p, size } = c.req.valid('query');
      const list = await skills.listSkills(em(c), c.get('principal').tenantId, p, size);
      return c.json({ path: SKILL_PATH, total: list.total, page: p, size, items: list.items }, 200);
    },
  );
  r.openapi(
    ruleGoRoute({
      method: 'get',
      path: '/{name}',
      tags: ruleGoTags,
      summary: 'One skill',
      middleware: guard(...readers),
      request: { params: s.NameParam, query: s.ScopeQuery },
      responses: { 200: rawJson(s.Skill) },
    }),
    async (c) => c.json(await skills.getSkill(em(c), c.get('principal').tenantId, c.req.valid('param').name), 200),
  );
  r.openapi(
    ruleGoRoute({
      method: 'post',
      path: '/',
      tags: ruleGoTags,
      summary: 'Add a skill',
      middleware: guard(...writers),
      request: { body: { required: true, content: { 'application/json': { schema: s.RuleGoSkillCreate } } } },
      responses: { 201: rawJson(s.Skill, 'Created') },
    }),
    async (c) => {
      const p = c.get('principal');
      const body = c.req.valid('json');
      return c.json(await skills.createSkill(em(c), p.tenantId, p.userId, body.name, body), 201);
    },
  );
  r.openapi(
    ruleGoRoute({
      method: 'put',
      path: '/{name}',
      tags: ruleGoTags,
      summary: 'Replace a skill (the body’s name is the path’s)',
      middleware: guard(...writers),
      request: {
        params: s.NameParam,
        body: { required: true, content: { 'application/json': { schema: s.RuleGoSkillBody } } },
      },
      responses: { 200: rawJson(s.Skill) },
    }),
    async (c) => {
      const p = c.get('principal');
      return c.json(
        await skills.updateSkill(em(c), p.tenantId, p.userId, c.req.valid('param').name, c.req.valid('json')),
        200,
      );
    },
  );
  r.openapi(
    ruleGoRoute({
      method: 'delete',
      path: '/{name}',
      tags: ruleGoTags,
      summary: 'Remove a skill (409 IN_USE while a chain’s aiAgent names it)',
      middleware: guard(...writers),
      request: { params: s.NameParam, query: s.ScopeQuery },
      responses: { 204: noContent('Deleted') },
    }),
    async (c) => {
      await skills.deleteSkill(em(c), c.get('principal').tenantId, c.req.valid('param').name);
      return c.body(null, 204);
    },
  );
  return r;
}
