import type { AppDeps } from '../../context.js';
import * as templates from './store.js';
import { Permissions } from '../../permissions.js';
import { page } from '../../http/envelope.js';
import { createRouter, endpoint } from '../../http/router.js';
import { em } from '../../http/middleware/auth.js';
import * as s from './templates.schemas.js';
import { deleteEndpoint } from '../../http/shared-endpoints.js';

const tags = ['notification templates'];
const permissions = [Permissions.ADMIN];

/** `/api/v1/notification-templates` — the tenant's message templates per kind and language (workflow:admin). */
export function notificationTemplateRoutes(deps: AppDeps) {
  const r = createRouter();
  endpoint(
    r,
    {
      method: 'get',
      path: '/',
      tags,
      summary: 'Every message template: each kind with a message, in each language, default or overridden',
      permissions,
      query: s.TemplateQuery,
      response: page(s.Template),
    },
    ({ principal, query, c }) => templates.listTemplates(em(c), principal.tenantId, query),
  );
  endpoint(
    r,
    {
      method: 'get',
      path: '/{kind}/{locale}',
      tags,
      summary: 'One message template: what is sent and the default',
      permissions,
      params: s.TemplateParams,
      response: s.Template,
    },
    ({ principal, params, c }) => templates.getTemplate(em(c), principal.tenantId, params.kind, params.locale),
  );
  endpoint(
    r,
    {
      method: 'put',
      path: '/{kind}/{locale}',
      tags,
      summary: 'Override parts of a message template (checked: 422 TEMPLATE_INVALID names the part and line)',
      permissions,
      params: s.TemplateParams,
      body: s.TemplateBody,
      response: s.Template,
    },
    ({ principal: p, params, body, c }) =>
      templates.putTemplate(em(c), p.tenantId, p.userId, params.kind, params.locale, body),
  );
  deleteEndpoint(
    r,
    {
      path: '/{kind}/{locale}',
      tags,
      summary: 'Back to the default template (404 when the tenant had none of its own)',
      permissions,
      params: s.TemplateParams,
    },
    ({ principal, params, c }) => templates.deleteTemplate(em(c), principal.tenantId, params.kind, params.locale),
  );
  endpoint(
    r,
    {
      method: 'post',
      path: '/{kind}/{locale}/preview',
      tags,
      summary:
        'Render a template — the parts given, else the stored ones — for a task or an instance (placeholder links)',
      permissions,
      params: s.TemplateParams,
      body: s.PreviewBody,
      optionalBody: true,
      response: s.Preview,
    },
    ({ principal, params, body, c }) =>
      templates.previewTemplate(deps, em(c), principal, params.kind, params.locale, body ?? {}),
  );
  return r;
}
