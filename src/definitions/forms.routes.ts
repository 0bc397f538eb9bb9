import * as forms from './forms.js';
import { Permissions } from '../permissions.js';
import { page } from '../http/envelope.js';
import { createRouter, endpoint } from '../http/router.js';
import { em } from '../http/middleware/auth.js';
import * as s from './forms.schemas.js';
import { deleteEndpoint, versionChanges } from '../http/shared-endpoints.js';

const tags = ['forms'];
const MANAGE = Permissions.FORM_MANAGE;

/**
 * `/api/v1/forms` (docs/forms.md): stored, versioned form schemas. Reading needs a login (a
 * form is what every applicant fills in); writing needs `workflow:form:manage`. Fixed paths come
 * before `/{id}`.
 */
export function formRoutes() {
  const r = createRouter();
  const view = forms.formView;
  const permissions = [MANAGE];

  endpoint(
    r,
    {
      method: 'get',
      path: '/',
      tags,
      summary: 'List forms: drafts and versions (filters: key, name, category, status)',
      query: s.FormQuery,
      response: page(s.Form),
    },
    ({ principal, query, c }) => forms.listForms(em(c), principal.tenantId, query),
  );
  endpoint(
    r,
    {
      method: 'get',
      path: '/key/{formKey}',
      tags,
      summary: 'The latest published version of a form key (404 when none)',
      params: s.KeyParam,
      response: s.Form,
    },
    async ({ principal, params, c }) => view(await forms.getLatestByKey(em(c), principal.tenantId, params.formKey)),
  );
  endpoint(
    r,
    {
      method: 'get',
      path: '/key/{formKey}/versions',
      tags,
      summary: 'Published and retired versions of a form key, newest first',
      params: s.KeyParam,
      query: s.FormQuery.pick({ page: true, pageSize: true }),
      response: page(s.Form),
    },
    ({ principal, params, query, c }) => forms.versionsByKey(em(c), principal.tenantId, params.formKey, query),
  );
  endpoint(
    r,
    {
      method: 'post',
      path: '/',
      tags,
      summary: 'Create a form draft (a key with versions gets its next version when this draft is published)',
      permissions,
      body: s.CreateFormBody,
      status: 201,
      response: s.Form,
      responseDescription: 'Created',
    },
    async ({ principal: p, body, c }) => view(await forms.createForm(em(c), p.tenantId, p.userId, body)),
  );
  endpoint(
    r,
    { method: 'get', path: '/{id}', tags, summary: 'One form draft or version', params: s.IdParam, response: s.Form },
    async ({ principal, params, c }) => view(await forms.getForm(em(c), principal.tenantId, params.id)),
  );
  endpoint(
    r,
    {
      method: 'patch',
      path: '/{id}',
      tags,
      summary: 'Update a draft (partial; 409 unless a draft)',
      permissions,
      params: s.IdParam,
      body: s.UpdateFormBody,
      response: s.Form,
    },
    async ({ principal: p, params, body, c }) =>
      view(await forms.updateForm(em(c), p.tenantId, p.userId, params.id, body)),
  );
  deleteEndpoint(
    r,
    {
      path: '/{id}',
      tags,
      summary: 'Delete a draft (409 for a version: retire it instead)',
      permissions,
      params: s.IdParam,
    },
    ({ principal, params, c }) => forms.deleteDraft(em(c), principal.tenantId, params.id),
  );
  versionChanges(r, { tags, permissions, params: s.IdParam, response: s.Form }, view, {
    publish: ["Publish a draft as the key's next version (earlier versions stay readable)", forms.publishForm],
    retire: ['Retire a published version: deploys no longer pick it (409 for a draft)', forms.retireForm],
  });
  return r;
}
