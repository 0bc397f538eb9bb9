// The tenant's own settings (GET/PUT /api/v1/tenant-settings): today its default language, the last
// choice for every message the tenant's people get (docs/http.md "Languages").
import type { EntityManager } from '@mikro-orm/postgresql';
import { Tenant } from '../db/entities/index.js';
import { AppError } from '../errors.js';

export interface TenantSettings {
  defaultLocale: string | null;
}

export async function getTenantSettings(em: EntityManager, tenantId: string): Promise<TenantSettings> {
  const tenant = await em.findOne(Tenant, { id: tenantId });
  if (!tenant) throw new AppError('NOT_FOUND', `No tenant ${tenantId}`);
  return { defaultLocale: tenant.defaultLocale ?? null };
}

export async function updateTenantSettings(
  em: EntityManager,
  tenantId: string,
  input: TenantSettings,
): Promise<TenantSettings> {
  const tenant = await em.findOne(Tenant, { id: tenantId });
  if (!tenant) throw new AppError('NOT_FOUND', `No tenant ${tenantId}`);
  tenant.defaultLocale = input.defaultLocale;
  await em.flush();
  return { defaultLocale: tenant.defaultLocale ?? null };
}
