import * as definitions from '../../services/definitions.js';
import { Permissions } from '../../services/permissions.js';
import { json, jsonBody, ok, page } from '../envelope.js';
import { createRouter, defineRoute } from '../router.js';
import { em, requirePermission } from '../middleware/auth.js';
import * as s from './definitions.schemas.js';

const tags = ['process-definitions'];
const { DEFINITION_READ: READ, DEFINITION_WRITE: WRITE } = Permissions;

/** `/api/v1/workflow/process-definitions` — fixed paths are registered before `/{id}`. */
export function definitionRoutes() {
  const r = createRouter();
  const view = definitions.definitionView;

  r.openapi(
    defineRoute({
      middleware: [requirePermission(READ)],
      method: 'get',
      path: '/',
      tags,
      summary: 'List definitions (filters: key, name, category, status)',
      request: { query: s.DefinitionQuery },
      responses: { 200: json(page(s.Definition)) },
    }),
    async (c) => {
      const p = c.get('principal');
      return c.json(ok(await definitions.listDefinitions(em(c), p.tenantId, c.req.valid('query'))), 200);
    },
  );
  r.openapi(
    defineRoute({
      middleware: [requirePermission(Permissions.INSTANCE_START, Permissions.CREATE, READ)],
      method: 'get',
      path: '/categories',
      tags,
      summary: 'Startable (active) processes grouped by category',
      responses: { 200: json(s.Category.array()) },
    }),
    async (c) => {
      const p = c.get('principal');
      return c.json(ok(await definitions.listCategories(em(c), p.tenantId)), 200);
    },
  );
  r.openapi(
    defineRoute({
      middleware: [requirePermission(READ)],
      method: 'get',
      path: '/key/{processKey}',
      tags,
      summary: 'The active version of a key (404 when none)',
      request: { params: s.KeyParam },
      responses: { 200: json(s.Definition) },
    }),
    async (c) => {
      const p = c.get('principal');
      return c.json(
        ok(view(await definitions.getActiveDefinition(em(c), p.tenantId, c.req.valid('param').processKey))),
        200,
      );
    },
  );
  r.openapi(
    defineRoute({
      middleware: [requirePermission(READ)],
      method: 'get',
      path: '/key/{processKey}/versions',
      tags,
      summary: 'All versions of a key, newest first',
      request: { params: s.KeyParam, query: s.DefinitionQuery.pick({ page: true, pageSize: true }) },
      responses: { 200: json(page(s.Definition)) },
    }),
    async (c) => {
      const p = c.get('principal');
      return c.json(
        ok(await definitions.versionsByKey(em(c), p.tenantId, c.req.valid('param').processKey, c.req.valid('query'))),
        200,
      );
    },
  );
  r.openapi(
    defineRoute({
      middleware: [requirePermission(WRITE)],
      method: 'post',
      path: '/deploy',
      tags,
      summary: 'Deploy a DSL (or publish a draft): next version, active; the previous active one is retired',
      request: { body: jsonBody(s.DeployBody) },
      responses: { 201: json(s.Definition, 'Deployed') },
    }),
    async (c) => {
      const p = c.get('principal');
      return c.json(ok(view(await definitions.deploy(em(c), p.tenantId, p.userId, c.req.valid('json')))), 201);
    },
  );
  r.openapi(
    defineRoute({
      method: 'post',
      middleware: [requirePermission(WRITE)],
      path: '/import',
      tags,
      summary:
        'Import a DSL JSON file (multipart field `file`) or body `{ dsl }`; an existing key gets the next version',
      request: {
        // Not required: the validator of the content type that was sent runs, the other is skipped.
        body: {
          required: false,
          content: { 'application/json': { schema: s.DslBody }, 'multipart/form-data': { schema: s.ImportForm } },
        },
      },
      responses: { 201: json(s.Definition, 'Imported') },
    }),
    async (c) => {
      const p = c.get('principal');
      const form = c.req.valid('form') as { file?: File };
      const dsl = form.file
        ? await definitions.readDslFile(form.file)
        : (c.req.valid('json') as { dsl?: Record<string, unknown> }).dsl;
      return c.json(ok(view(await definitions.importDsl(em(c), p.tenantId, p.userId, dsl))), 201);
    },
  );
  r.openapi(
    defineRoute({
      middleware: [requirePermission(READ, WRITE)],
      method: 'post',
      path: '/validate-conditions',
      tags,
      summary: 'Check the conditions of a DSL, or a list of expressions',
      request: { body: jsonBody(s.ValidateConditionsBody) },
      responses: { 200: json(s.ConditionsReport) },
    }),
    async (c) => {
      const p = c.get('principal');
      return c.json(ok(await definitions.checkConditions(em(c), p.tenantId, c.req.valid('json'))), 200);
    },
  );
  r.openapi(
    defineRoute({
      middleware: [requirePermission(WRITE)],
      method: 'post',
      path: '/',
      tags,
      summary: 'Create a draft',
      request: { body: jsonBody(s.DslBody) },
      responses: { 201: json(s.Definition, 'Created') },
    }),
    async (c) => {
      const p = c.get('principal');
      return c.json(ok(view(await definitions.createDraft(em(c), p.tenantId, p.userId, c.req.valid('json').dsl))), 201);
    },
  );
  r.openapi(
    defineRoute({
      middleware: [requirePermission(READ)],
      method: 'get',
      path: '/{id}',
      tags,
      summary: 'One definition',
      request: { params: s.IdParam },
      responses: { 200: json(s.Definition) },
    }),
    async (c) => {
      const p = c.get('principal');
      return c.json(ok(view(await definitions.getDefinition(em(c), p.tenantId, c.req.valid('param').id))), 200);
    },
  );
  r.openapi(
    defineRoute({
      middleware: [requirePermission(READ)],
      method: 'get',
      path: '/{id}/versions',
      tags,
      summary: 'All versions of the key of this definition, newest first',
      request: { params: s.IdParam, query: s.DefinitionQuery.pick({ page: true, pageSize: true }) },
      responses: { 200: json(page(s.Definition)) },
    }),
    async (c) => {
      const p = c.get('principal');
      return c.json(
        ok(await definitions.versionsById(em(c), p.tenantId, c.req.valid('param').id, c.req.valid('query'))),
        200,
      );
    },
  );
  r.openapi(
    defineRoute({
      middleware: [requirePermission(WRITE)],
      method: 'put',
      path: '/{id}',
      tags,
      summary: 'Update a draft (409 unless a draft)',
      request: { params: s.IdParam, body: jsonBody(s.DslBody) },
      responses: { 200: json(s.Definition) },
    }),
    async (c) => {
      const p = c.get('principal');
      return c.json(
        ok(
          view(
            await definitions.updateDraft(
              em(c),
              p.tenantId,
              p.userId,
              c.req.valid('param').id,
              c.req.valid('json').dsl,
            ),
          ),
        ),
        200,
      );
    },
  );
  r.openapi(
    defineRoute({
      middleware: [requirePermission(WRITE)],
      method: 'delete',
      path: '/{id}',
      tags,
      summary: 'Delete a draft, or a version no instance uses (409 otherwise)',
      request: { params: s.IdParam },
      responses: { 200: json(s.Deleted) },
    }),
    async (c) => {
      const p = c.get('principal');
      await definitions.deleteDefinition(em(c), p.tenantId, c.req.valid('param').id);
      return c.json(ok({ deleted: true as const }), 200);
    },
  );
  r.openapi(
    defineRoute({
      middleware: [requirePermission(WRITE)],
      method: 'post',
      path: '/{id}/activate',
      tags,
      summary: 'Publish a draft, or make a retired version the active one again',
      request: { params: s.IdParam },
      responses: { 200: json(s.Definition) },
    }),
    async (c) => {
      const p = c.get('principal');
      return c.json(ok(view(await definitions.activate(em(c), p.tenantId, p.userId, c.req.valid('param').id))), 200);
    },
  );
  r.openapi(
    defineRoute({
      middleware: [requirePermission(WRITE)],
      method: 'post',
      path: '/{id}/retire',
      tags,
      summary: 'Retire the active version (409 for a draft)',
      request: { params: s.IdParam },
      responses: { 200: json(s.Definition) },
    }),
    async (c) => {
      const p = c.get('principal');
      return c.json(ok(view(await definitions.retire(em(c), p.tenantId, p.userId, c.req.valid('param').id))), 200);
    },
  );
  return r;
}
