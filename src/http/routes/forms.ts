import * as forms from '../../services/forms.js';
import { Permissions } from '../../services/permissions.js';
import { json, jsonBody, ok, page } from '../envelope.js';
import { createRouter, defineRoute } from '../router.js';
import { em, requirePermission } from '../middleware/auth.js';
import * as s from './forms.schemas.js';

const tags = ['forms'];
const MANAGE = Permissions.FORM_MANAGE;

/**
 * `/api/v1/forms` (docs/forms.md): stored, versioned form schemas. Reading needs a login (a
 * form is what every applicant fills in); writing needs `workflow:form:manage`. Fixed paths come
 * before `/{id}`.
 */
export function formRoutes() {
  const r = createRouter();
  const view = (f: Parameters<typeof forms.formView>[0]) => forms.formView(f) as any;

  r.openapi(
    defineRoute({
      method: 'get',
      path: '/',
      tags,
      summary: 'List forms: drafts and versions (filters: key, name, category, status)',
      request: { query: s.FormQuery },
      responses: { 200: json(page(s.Form)) },
    }),
    async (c) => {
      const p = c.get('principal');
      return c.json(ok((await forms.listForms(em(c), p.tenantId, c.req.valid('query'))) as any), 200);
    },
  );
  r.openapi(
    defineRoute({
      method: 'get',
      path: '/key/{formKey}',
      tags,
      summary: 'The latest published version of a form key (404 when none)',
      request: { params: s.KeyParam },
      responses: { 200: json(s.Form) },
    }),
    async (c) => {
      const p = c.get('principal');
      return c.json(ok(view(await forms.getLatestByKey(em(c), p.tenantId, c.req.valid('param').formKey))), 200);
    },
  );
  r.openapi(
    defineRoute({
      method: 'get',
      path: '/key/{formKey}/versions',
      tags,
      summary: 'Published and retired versions of a form key, newest first',
      request: { params: s.KeyParam, query: s.FormQuery.pick({ page: true, pageSize: true }) },
      responses: { 200: json(page(s.Form)) },
    }),
    async (c) => {
      const p = c.get('principal');
      const list = await forms.versionsByKey(em(c), p.tenantId, c.req.valid('param').formKey, c.req.valid('query'));
      return c.json(ok(list as any), 200);
    },
  );
  r.openapi(
    defineRoute({
      middleware: [requirePermission(MANAGE)],
      method: 'post',
      path: '/',
      tags,
      summary: 'Create a form draft (a key with versions gets its next version when this draft is published)',
      request: { body: jsonBody(s.CreateFormBody) },
      responses: { 201: json(s.Form, 'Created') },
    }),
    async (c) => {
      const p = c.get('principal');
      return c.json(ok(view(await forms.createForm(em(c), p.tenantId, p.userId, c.req.valid('json')))), 201);
    },
  );
  r.openapi(
    defineRoute({
      method: 'get',
      path: '/{id}',
      tags,
      summary: 'One form draft or version',
      request: { params: s.IdParam },
      responses: { 200: json(s.Form) },
    }),
    async (c) => {
      const p = c.get('principal');
      return c.json(ok(view(await forms.getForm(em(c), p.tenantId, c.req.valid('param').id))), 200);
    },
  );
  r.openapi(
    defineRoute({
      middleware: [requirePermission(MANAGE)],
      method: 'patch',
      path: '/{id}',
      tags,
      summary: 'Update a draft (partial; 409 unless a draft)',
      request: { params: s.IdParam, body: jsonBody(s.UpdateFormBody) },
      responses: { 200: json(s.Form) },
    }),
    async (c) => {
      const p = c.get('principal');
      const row = await forms.updateForm(em(c), p.tenantId, p.userId, c.req.valid('param').id, c.req.valid('json'));
      return c.json(ok(view(row)), 200);
    },
  );
  r.openapi(
    defineRoute({
      middleware: [requirePermission(MANAGE)],
      method: 'delete',
      path: '/{id}',
      tags,
      summary: 'Delete a draft (409 for a version: retire it instead)',
      request: { params: s.IdParam },
      responses: { 200: json(s.Deleted) },
    }),
    async (c) => {
      const p = c.get('principal');
      await forms.deleteDraft(em(c), p.tenantId, c.req.valid('param').id);
      return c.json(ok({ deleted: true as const }), 200);
    },
  );
  r.openapi(
    defineRoute({
      middleware: [requirePermission(MANAGE)],
      method: 'post',
      path: '/{id}/publish',
      tags,
      summary: "Publish a draft as the key's next version (earlier versions stay readable)",
      request: { params: s.IdParam },
      responses: { 200: json(s.Form) },
    }),
    async (c) => {
      const p = c.get('principal');
      return c.json(ok(view(await forms.publishForm(em(c), p.tenantId, p.userId, c.req.valid('param').id))), 200);
    },
  );
  r.openapi(
    defineRoute({
      middleware: [requirePermission(MANAGE)],
      method: 'post',
      path: '/{id}/retire',
      tags,
      summary: 'Retire a published version: deploys no longer pick it (409 for a draft)',
      request: { params: s.IdParam },
      responses: { 200: json(s.Form) },
    }),
    async (c) => {
      const p = c.get('principal');
      return c.json(ok(view(await forms.retireForm(em(c), p.tenantId, p.userId, c.req.valid('param').id))), 200);
    },
  );
  return r;
}
