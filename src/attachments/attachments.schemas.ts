import { z } from '@hono/zod-openapi';
import { IsoDate } from '../shapes.js';

export const AttachmentRef = z
  .object({ id: z.string(), name: z.string(), size: z.number().int(), contentType: z.string() })
  .openapi('AttachmentRef', { description: 'A file as a trail entry, a comment or a message names it' });

export const Attachment = z
  .object({
    id: z.string(),
    name: z.string().openapi({
      description: 'The file name as uploaded, made safe (no path, no control characters, ≤ 255 characters)',
    }),
    size: z.number().int().openapi({ description: 'Bytes' }),
    contentType: z.string().openapi({ description: 'Judged from the bytes, never taken from the client' }),
    sha256: z.string().openapi({ description: 'Hex SHA-256 of the bytes' }),
    uploaderId: z.string(),
    createdAt: IsoDate,
    instanceId: z.string().nullable(),
    taskId: z.string().nullable(),
    source: z
      .enum(['upload', 'form', 'comment', 'action'])
      .openapi({ description: "Where it is attached; 'upload': not yet (only its uploader sees it)" }),
    field: z.string().nullable().openapi({ description: 'The form field, for source form' }),
    url: z
      .string()
      .openapi({ description: 'Signed content URL (relative), valid ATTACHMENT_URL_TTL_SECONDS; inline when safe' }),
    downloadUrl: z.string().openapi({ description: 'The same, always as a download' }),
  })
  .openapi('Attachment');

export const AttachmentDeleted = z.object({ id: z.string(), deleted: z.literal(true) }).openapi('AttachmentDeleted');

const uuid = z.string().regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
export const AttachmentIdParam = z.object({ id: z.string().openapi({ param: { name: 'id', in: 'path' } }) });
export const isAttachmentId = (id: string) => uuid.safeParse(id).success;

export const UploadQuery = z
  .object({
    processKey: z
      .string()
      .min(1)
      .max(200)
      .optional()
      .openapi({
        param: { name: 'processKey', in: 'query' },
        description: 'With `field`: check the file against that start-form field',
      }),
    field: z
      .string()
      .min(1)
      .max(100)
      .optional()
      .openapi({ param: { name: 'field', in: 'query' } }),
  })
  .strict();

export const ContentQuery = z.object({
  token: z
    .string()
    .max(200)
    .optional()
    .openapi({ param: { name: 'token', in: 'query' }, description: 'A signed URL’s token: no bearer token needed' }),
  download: z
    .enum(['0', '1'])
    .optional()
    .openapi({ param: { name: 'download', in: 'query' }, description: '1: always as a download' }),
});

/** Ids of uploaded files a comment or task action attaches. */
export const AttachmentIds = z
  .array(z.string().min(1).max(64))
  .max(20)
  .refine((ids) => new Set(ids).size === ids.length, { message: 'each file at most once' })
  .optional()
  .openapi({
    uniqueItems: true,
    description: 'Ids of files the caller uploaded (POST /api/v1/attachments), attached to the task with this action',
  });
