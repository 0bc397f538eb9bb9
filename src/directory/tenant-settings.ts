// The tenant's own settings (GET/PUT /api/v1/tenant-settings): today its default language, the last
// choice for every message the tenant's people get (docs/http.md "Languages").
import type { EntityManager } from '@mikro-orm/postgresql';
import { Tenant } from '../db/entities/index.js';
import { AppError } from '../errors.js';

/** A tenant's attachment limits (docs/attachments.md#limits). */
export interface AttachmentLimits {
  maxFileBytes: number;
  maxFilesPerInstance: number;
  maxTotalBytes: number;
}

export interface TenantSettings {
  defaultLocale: string | null;
  /** The tenant's own attachment limits (docs/attachments.md#limits); a field left out takes the service's. */
  attachmentLimits?: Partial<AttachmentLimits> | null;
}

async function limitsRow(em: EntityManager, tenantId: string): Promise<Partial<AttachmentLimits> | null> {
  const [row] = await em.execute('select attachment_limits as l from tenants where id = ?', [tenantId]);
  return (row?.l as Partial<AttachmentLimits> | null) ?? null;
}

export async function getTenantSettings(em: EntityManager, tenantId: string): Promise<TenantSettings> {
  const tenant = await em.findOne(Tenant, { id: tenantId });
  if (!tenant) throw new AppError('NOT_FOUND', `No tenant ${tenantId}`);
  return { defaultLocale: tenant.defaultLocale ?? null, attachmentLimits: await limitsRow(em, tenantId) };
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
  if (input.attachmentLimits !== undefined)
    await em.execute('update tenants set attachment_limits = ?::jsonb where id = ?', [
      input.attachmentLimits === null ? null : JSON.stringify(input.attachmentLimits),
      tenantId,
    ]);
  return { defaultLocale: tenant.defaultLocale ?? null, attachmentLimits: await limitsRow(em, tenantId) };
}
