import { z } from '@hono/zod-openapi';
import { LOCALES } from '../locales.js';

const DefaultLocale = z.enum(LOCALES).nullable().openapi({
  description:
    "The language of the tenant's messages (API answers, e-mail and chat) when neither the reader's own `locale` nor the request's Accept-Language names one; null: en",
});

export const TenantSettings = z.object({ defaultLocale: DefaultLocale }).openapi('TenantSettings');

export const TenantSettingsBody = z.object({ defaultLocale: DefaultLocale }).strict().openapi('TenantSettingsBody');
