import { getTenantSettings, updateTenantSettings } from './tenant-settings.js';
import { Permissions } from '../permissions.js';
import { createRouter, endpoint } from '../http/router.js';
import { em } from '../http/middleware/auth.js';
import * as s from './tenant-settings.schemas.js';

const tags = ['tenant settings'];

/** `/api/v1/tenant-settings` — the caller's tenant's settings: anyone of the tenant reads them, an admin changes them. */
export function tenantSettingsRoutes() {
  const r = createRouter();
  endpoint(
    r,
    {
      method: 'get',
      path: '/',
      tags,
      summary: "The caller's tenant's settings (its default language)",
      response: s.TenantSettings,
    },
    ({ principal, c }) => getTenantSettings(em(c), principal.tenantId),
  );
  endpoint(
    r,
    {
      method: 'put',
      path: '/',
      tags,
      summary: "Replace the caller's tenant's settings (workflow:admin)",
      permissions: [Permissions.ADMIN],
      body: s.TenantSettingsBody,
      response: s.TenantSettings,
    },
    ({ principal, body, c }) => updateTenantSettings(em(c), principal.tenantId, body),
  );
  return r;
}
