import { z } from '@hono/zod-openapi';
import { LOCALES } from '../locales.js';

const DefaultLocale = z.enum(LOCALES).nullable().openapi({
  description:
    "The language of the tenant's messages (API answers, e-mail and chat) when neither the reader's own `locale` nor the request's Accept-Language names one; null: en",
});

const AttachmentLimits = z
  .object({
    maxFileBytes: z.number().int().positive().max(Number.MAX_SAFE_INTEGER).optional(),
    maxFilesPerInstance: z.number().int().positive().max(10_000).optional(),
    maxTotalBytes: z.number().int().positive().max(Number.MAX_SAFE_INTEGER).optional(),
  })
  .strict()
  .nullable()
  .openapi('AttachmentLimits', {
    description:
      "The tenant's own attachment limits (docs/attachments.md); a limit left out (or null for all) takes the service's (ATTACHMENT_MAX_FILE_BYTES, ATTACHMENT_MAX_FILES_PER_INSTANCE, ATTACHMENT_MAX_TENANT_BYTES)",
  });

export const TenantSettings = z
  .object({ defaultLocale: DefaultLocale, attachmentLimits: AttachmentLimits })
  .openapi('TenantSettings');

export const TenantSettingsBody = z
  .object({ defaultLocale: DefaultLocale, attachmentLimits: AttachmentLimits.optional() })
  .strict()
  .openapi('TenantSettingsBody');
