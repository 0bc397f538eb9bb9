// /api/v1/attachments (docs/attachments.md) and an instance's file list. Every route needs a login,
// except reading the bytes with a signed URL's token (messages and previews): the token is the
// credential, for that one file, until it expires.
import { Readable } from 'node:stream';
import type { IncomingMessage } from 'node:http';
import type { Context } from 'hono';
import { z } from '@hono/zod-openapi';
import type { AppEnv } from '../http/context.js';
import type { AppDeps } from '../context.js';
import { AppError } from '../errors.js';
import { Permissions } from '../permissions.js';
import { commonErrors, json, ok, page } from '../http/envelope.js';
import { PageQuery } from '../paging.js';
import { createRouter, endpoint } from '../http/router.js';
import { authenticate } from '../http/middleware/auth.js';
import * as s from './attachments.schemas.js';
import {
  attachmentStore,
  attachmentView,
  deleteUpload,
  instanceAttachments,
  readableAttachment,
  tokenValid,
  visibleInstance,
  type AttachmentRow,
} from './attachments.js';
import { contentDisposition, parseRange, servedInline } from './content.js';
import { upload } from './upload.js';
import { StoreUnavailable } from './store.js';

const tags = ['attachments'];
const { OPERATE, INSTANCE_START, CREATE, MONITOR, INSTANCE_MANAGE } = Permissions;
const readers = [OPERATE, INSTANCE_START, CREATE, MONITOR, INSTANCE_MANAGE];

const signedContent = (c: Context<AppEnv>) =>
  c.req.method === 'GET' && /\/content$/.test(c.req.path) && c.req.query('token') !== undefined;

/** The bytes of a row, whole or one range, with headers that keep a browser from running them. */
async function serve(c: Context<AppEnv>, deps: AppDeps, row: AttachmentRow, download: boolean) {
  const size = Number(row.size);
  const range = parseRange(c.req.header('range'), size);
  if (range === 'unsatisfiable') {
    c.header('Content-Range', `bytes */${size}`);
    throw new AppError('RANGE_NOT_SATISFIABLE', `The file has ${size} bytes`);
  }
  const store = attachmentStore(deps.config);
  if (row.store !== store.kind)
    throw new AppError(
      'UNAVAILABLE',
      `The file is kept in the ${row.store} store; this server runs the ${store.kind} store`,
    );
  let object;
  try {
    object = await store.get(row.storage_key, range ?? undefined);
  } catch (err) {
    if (err instanceof StoreUnavailable)
      throw new AppError('UNAVAILABLE', `Attachment store unavailable: ${err.message}`);
    throw err;
  }
  const inline = !download && servedInline(row.content_type);
  const headers: Record<string, string> = {
    'Content-Type': row.content_type === 'text/plain' ? 'text/plain; charset=utf-8' : row.content_type,
    'Content-Length': String(object.length),
    'Content-Disposition': contentDisposition(row.name, inline),
    'Accept-Ranges': 'bytes',
    'X-Content-Type-Options': 'nosniff',
    // Nothing in a file runs: no scripts, no plugins but the PDF viewer (which a sandbox would stop).
    'Content-Security-Policy':
      row.content_type === 'application/pdf' && inline
        ? "default-src 'none'; object-src 'self'; frame-ancestors 'self'"
        : "sandbox; default-src 'none'; img-src 'self' data:; style-src 'unsafe-inline'; frame-ancestors 'self'",
    'Cache-Control': 'private, max-age=300',
    ETag: `"${row.sha256}"`,
  };
  if (range) headers['Content-Range'] = `bytes ${range.start}-${range.end}/${size}`;
  return new Response(Readable.toWeb(object.body) as ReadableStream, { status: range ? 206 : 200, headers });
}

export function attachmentRoutes(deps: AppDeps) {
  const r = createRouter({ secured: false });
  r.use('*', async (c, next) => (signedContent(c) ? next() : authenticate(c, next)));

  r.openAPIRegistry.registerPath({
    method: 'post',
    path: '/',
    tags,
    summary: 'Upload a file (multipart, streamed): it is the uploader’s until a start, comment or action attaches it',
    security: [{ bearerAuth: [] }],
    request: {
      query: s.UploadQuery,
      body: {
        required: true,
        content: {
          'multipart/form-data': {
            schema: z.object({
              file: z.string().openapi({ format: 'binary', description: 'The file (one part named file)' }),
            }),
          },
        },
      },
    },
    responses: {
      ...commonErrors,
      201: json(s.Attachment, 'Stored whole, judged and (with CLAMAV_HOST) scanned'),
      413: {
        description: 'Larger than the limit (ATTACHMENT_TOO_LARGE)',
        content: { 'application/json': { schema: commonErrors[413].content['application/json'].schema } },
      },
      415: {
        description: 'Not multipart/form-data',
        content: { 'application/json': { schema: commonErrors[415].content['application/json'].schema } },
      },
    },
  });
  r.post('/', async (c) => {
    const principal = c.get('principal');
    if (![...readers].some((p) => principal.permissions.has(p) || principal.permissions.has('*')))
      throw new AppError('FORBIDDEN', `Permission required: ${readers.join(' or ')}`);
    const query = s.UploadQuery.safeParse(c.req.query());
    if (!query.success)
      throw new AppError('VALIDATION_FAILED', 'query: processKey and field are short strings', {
        fields: query.error.issues.map((i) => ({ path: `query.${i.path.join('.')}`, message: i.message })),
      });
    const incoming = (c.env as { incoming: IncomingMessage }).incoming;
    const row = await upload(deps, principal, incoming, query.data);
    return c.json(ok(attachmentView(deps.config, row)), 201);
  });

  endpoint(
    r,
    {
      method: 'get',
      path: '/{id}',
      tags,
      summary: 'An attachment’s metadata (its uploader; once attached, whoever may see its request)',
      permissions: readers,
      params: s.AttachmentIdParam,
      response: s.Attachment,
    },
    async ({ principal, params }) => {
      if (!s.isAttachmentId(params.id)) throw new AppError('NOT_FOUND', `No attachment ${params.id}`);
      return attachmentView(deps.config, await readableAttachment(deps.orm.em.fork(), principal, params.id));
    },
  );

  r.openAPIRegistry.registerPath({
    method: 'get',
    path: '/{id}/content',
    tags,
    summary: 'The bytes (Range supported): with a bearer token, or with a signed URL’s token alone',
    security: [{ bearerAuth: [] }, {}],
    request: { params: s.AttachmentIdParam, query: s.ContentQuery },
    responses: {
      ...commonErrors,
      200: {
        description: 'The file; inline only for images, PDF and plain text',
        content: { 'application/octet-stream': { schema: z.string().openapi({ format: 'binary' }) } },
      },
      206: {
        description: 'The asked range',
        content: { 'application/octet-stream': { schema: z.string().openapi({ format: 'binary' }) } },
      },
      416: {
        description: 'A range outside the file',
        content: { 'application/json': { schema: commonErrors[404].content['application/json'].schema } },
      },
    },
  });
  r.get('/:id/content', async (c) => {
    const id = c.req.param('id');
    const token = c.req.query('token');
    const download = c.req.query('download') === '1';
    const missing = new AppError('NOT_FOUND', `No attachment ${id}`);
    if (!s.isAttachmentId(id)) throw missing;
    const em = deps.orm.em.fork();
    if (token !== undefined) {
      const [row] = await em.execute<AttachmentRow[]>('select * from attachments where id = ? and not deleting', [id]);
      if (!row || !tokenValid(deps.config, row.tenant_id, id, token))
        throw new AppError('LINK_INVALID', 'This file link is not valid or has expired');
      return serve(c, deps, row, download);
    }
    const principal = c.get('principal');
    if (![...readers].some((p) => principal.permissions.has(p) || principal.permissions.has('*')))
      throw new AppError('FORBIDDEN', `Permission required: ${readers.join(' or ')}`);
    return serve(c, deps, await readableAttachment(em, principal, id), download);
  });

  endpoint(
    r,
    {
      method: 'delete',
      path: '/{id}',
      tags,
      summary: 'Delete a file you uploaded that is not attached yet (409 once attached)',
      permissions: readers,
      params: s.AttachmentIdParam,
      response: s.AttachmentDeleted,
    },
    async ({ principal, params }) => {
      if (!s.isAttachmentId(params.id)) throw new AppError('NOT_FOUND', `No attachment ${params.id}`);
      return deleteUpload(deps.orm.em.fork(), principal, params.id);
    },
  );
  return r;
}

/** GET /workflow/process-instances/{id}/attachments: the files of an instance the caller may see. */
export function instanceAttachmentRoutes(deps: AppDeps) {
  const r = createRouter();
  endpoint(
    r,
    {
      method: 'get',
      path: '/{id}/attachments',
      tags,
      summary: 'The files of an instance the caller may see (form fields hidden from them left out)',
      permissions: readers,
      params: s.AttachmentIdParam,
      query: PageQuery,
      response: page(s.Attachment),
    },
    async ({ principal, params, query }) => {
      const em = deps.orm.em.fork();
      const instance = await visibleInstance(em, principal, params.id);
      // Bounded by the files-per-request limit: filtered by field permissions, then paged.
      const rows = await instanceAttachments(em, principal, instance);
      const from = (query.page - 1) * query.pageSize;
      return {
        items: rows.slice(from, from + query.pageSize).map((row) => attachmentView(deps.config, row)),
        total: rows.length,
        page: query.page,
        pageSize: query.pageSize,
      };
    },
  );
  return r;
}
