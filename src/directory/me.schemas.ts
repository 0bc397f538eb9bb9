import { z } from '@hono/zod-openapi';
import { LOCALES } from '../locales.js';

export const MePatch = z
  .object({
    locale: z.enum(LOCALES).nullable().openapi({
      description: 'The language of the console and of the messages sent to you; null: the browser decides',
    }),
  })
  .strict()
  .openapi('MePatch');
