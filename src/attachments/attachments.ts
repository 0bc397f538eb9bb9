// Use cases of attachments (docs/attachments.md): who may read a file, signed URLs, the views, and
// attaching uploaded files to an instance (start form), a comment or a task action. A file is its
// uploader's alone until it is attached; then whoever may see the instance sees it (a form field
// hidden from them by the field permissions hides its files too).
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Config } from '../config.js';
import type { Principal } from '../context.js';
import { AppError, referenceError } from '../errors.js';
import { holds, Permissions } from '../permissions.js';
import { canonicalType, type FormFieldSpec } from '../../dsl/index.js';
import { definitionOf, findInstanceRow, isParticipant } from '../read-model/read-model.js';
import { actorOf } from '../temporal/engine-client.js';
import { formFor } from '../read-model/form-view.js';
import { accepted } from './content.js';
import type { AttachmentLimits } from '../directory/tenant-settings.js';
import { createStore, type AttachmentStore } from './store.js';

export type AttachmentSource = 'upload' | 'form' | 'comment' | 'action';

/** What a trail entry, a comment or a message carries of a file. */
export interface AttachmentRef {
  id: string;
  name: string;
  size: number;
  contentType: string;
}

export type { AttachmentLimits };

const stores = new WeakMap<Config, AttachmentStore>();
/** The process's one store for its configuration. */
export function attachmentStore(config: Config): AttachmentStore {
  let store = stores.get(config);
  if (!store) stores.set(config, (store = createStore(config)));
  return store;
}

/** The service's limits, with the tenant's own (tenant settings) where it set them. */
export async function limitsOf(em: EntityManager, config: Config, tenantId: string): Promise<AttachmentLimits> {
  const rows = await em.execute<Array<{ l: Partial<AttachmentLimits> | null }>>(
    'select attachment_limits as l from tenants where id = ?',
    [tenantId],
  );
  const own = rows[0]?.l ?? {};
  return {
    maxFileBytes: own.maxFileBytes ?? config.ATTACHMENT_MAX_FILE_BYTES,
    maxFilesPerInstance: own.maxFilesPerInstance ?? config.ATTACHMENT_MAX_FILES_PER_INSTANCE,
    maxTotalBytes: own.maxTotalBytes ?? config.ATTACHMENT_MAX_TENANT_BYTES,
  };
}

// ---------- signed URLs ----------

function secretOf(config: Config): string {
  const secret = config.APPROVAL_LINK_SECRET ?? config.JWT_SECRET;
  if (!secret) throw new AppError('UNAVAILABLE', 'Signed attachment URLs need APPROVAL_LINK_SECRET (or JWT_SECRET)');
  return secret;
}

const macOf = (config: Config, tenantId: string, id: string, exp: number) =>
  createHmac('sha256', secretOf(config)).update(`attachment\0${tenantId}\0${id}\0${exp}`).digest('base64url');

/** `<expiry seconds>.<mac>`: names one file of one tenant until it expires; the URL is the credential. */
export function signToken(config: Config, tenantId: string, id: string, ttlSeconds: number): string {
  const exp = Math.floor(Date.now() / 1000) + ttlSeconds;
  return `${exp}.${macOf(config, tenantId, id, exp)}`;
}

/** Whether `token` was signed for this file and has not expired. */
export function tokenValid(config: Config, tenantId: string, id: string, token: string): boolean {
  const m = /^(\d{1,12})\.([A-Za-z0-9_-]{43})$/.exec(token);
  if (!m) return false;
  const exp = Number(m[1]);
  if (exp < Date.now() / 1000) return false;
  const want = Buffer.from(macOf(config, tenantId, id, exp));
  const got = Buffer.from(m[2]!);
  return want.length === got.length && timingSafeEqual(want, got);
}

/** The content URL (relative to the server) with a token valid for `ttlSeconds`. */
export function signedUrl(config: Config, tenantId: string, id: string, ttlSeconds: number, download = false) {
  const token = signToken(config, tenantId, id, ttlSeconds);
  return `/api/v1/attachments/${id}/content?token=${token}${download ? '&download=1' : ''}`;
}

// ---------- views ----------

export interface AttachmentRow {
  id: string;
  tenant_id: string;
  name: string;
  size: string | number;
  content_type: string;
  ext: string;
  sha256: string;
  uploader_id: string;
  store: 'disk' | 's3';
  storage_key: string;
  source: AttachmentSource;
  instance_id: string | null;
  task_id: string | null;
  comment_id: string | null;
  field: string | null;
  created_at: Date | string;
}

export const refOf = (r: AttachmentRow): AttachmentRef => ({
  id: r.id,
  name: r.name,
  size: Number(r.size),
  contentType: r.content_type,
});

export function attachmentView(config: Config, r: AttachmentRow) {
  const ttl = config.ATTACHMENT_URL_TTL_SECONDS;
  return {
    ...refOf(r),
    sha256: r.sha256,
    uploaderId: r.uploader_id,
    createdAt: new Date(r.created_at).toISOString(),
    instanceId: r.instance_id,
    taskId: r.task_id,
    source: r.source,
    field: r.field,
    url: signedUrl(config, r.tenant_id, r.id, ttl),
    downloadUrl: signedUrl(config, r.tenant_id, r.id, ttl, true),
  };
}

// ---------- who may read ----------

const SELECT = 'select * from attachments where tenant_id = ? and id = ? and not deleting';

/** Form fields of the instance the caller may not see (field permissions `h`). */
async function hiddenFields(em: EntityManager, principal: Principal, instance: any): Promise<string[]> {
  const def = await definitionOf(em, instance);
  if (!def?.form) return [];
  const open = await em.execute(
    'select assignee, status, form_permissions from tasks where tenant_id = ? and instance_id = ?',
    [principal.tenantId, instance.id],
  );
  return formFor(def, instance, principal.userId, open)?.hidden ?? [];
}

const overseer = (p: Principal) => holds(p.permissions, Permissions.INSTANCE_MANAGE, Permissions.MONITOR);

/** The row if the caller may read it, else 404 (another tenant's, or a request they may not see). */
export async function readableAttachment(em: EntityManager, principal: Principal, id: string): Promise<AttachmentRow> {
  const [row] = await em.execute<AttachmentRow[]>(SELECT, [principal.tenantId, id]);
  const missing = new AppError('NOT_FOUND', `No attachment ${id}`);
  if (!row) throw missing;
  if (row.uploader_id === principal.userId) return row;
  if (!row.instance_id) throw missing;
  const instance = await findInstanceRow(em, principal.tenantId, row.instance_id).catch(() => null);
  if (!instance) throw missing;
  if (!overseer(principal) && !(await isParticipant(em, principal.tenantId, row.instance_id, actorOf(principal))))
    throw missing;
  if (row.source === 'form' && row.field && (await hiddenFields(em, principal, instance)).includes(row.field))
    throw missing;
  return row;
}

/** The instance row if the caller may see it (as the instances domain decides), else 404. */
export async function visibleInstance(em: EntityManager, principal: Principal, id: string) {
  const row = await findInstanceRow(em, principal.tenantId, id);
  if (overseer(principal) || (await isParticipant(em, principal.tenantId, id, actorOf(principal)))) return row;
  throw new AppError('NOT_FOUND', `No instance ${id}`);
}

/** Every file of an instance the caller may see (the caller may see the instance: checked by the route). */
export async function instanceAttachments(em: EntityManager, principal: Principal, instance: any) {
  const rows = await em.execute<AttachmentRow[]>(
    'select * from attachments where tenant_id = ? and instance_id = ? and not deleting order by created_at, id',
    [principal.tenantId, instance.id],
  );
  const hidden = rows.some((r) => r.source === 'form') ? await hiddenFields(em, principal, instance) : [];
  return rows.filter(
    (r) => r.uploader_id === principal.userId || !(r.source === 'form' && r.field && hidden.includes(r.field)),
  );
}

// ---------- attaching ----------

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

const refused = (path: string, message: string) =>
  new AppError('ATTACHMENT_REFUSED', `${path}: ${message}`, { fields: [{ path, message }] });

/** Uploaded files named by `ids`: each must be the caller's own, whole and not attached elsewhere. */
async function ownUploads(
  em: EntityManager,
  principal: Principal,
  ids: string[],
  path: string,
  alreadyHere: { instanceId?: string; taskId?: string; commentId?: string } = {},
): Promise<AttachmentRow[]> {
  if (new Set(ids).size !== ids.length) throw refused(path, 'a file is named twice');
  if (!ids.length) return [];
  const unknown = (id: string) => referenceError([{ path, message: `no uploaded file ${id} of yours` }])!;
  // Not an id this service makes: no look-up needed.
  const bad = ids.find((id) => !UUID.test(id));
  if (bad) throw unknown(bad);
  const rows = await em.execute<AttachmentRow[]>(
    `select * from attachments where tenant_id = ? and id = any(?::text[]) and not deleting`,
    [principal.tenantId, `{${ids.map((i) => JSON.stringify(i)).join(',')}}`],
  );
  const byId = new Map(rows.map((r) => [r.id, r]));
  for (const id of ids) {
    const r = byId.get(id);
    if (!r || r.uploader_id !== principal.userId) throw unknown(id);
    const here =
      (alreadyHere.instanceId &&
        r.instance_id === alreadyHere.instanceId &&
        r.task_id === (alreadyHere.taskId ?? null)) ||
      (alreadyHere.commentId && r.comment_id === alreadyHere.commentId);
    if (r.source !== 'upload' && !here)
      throw new AppError('ATTACHMENT_ATTACHED', `${path}: file ${id} is attached to a request already`, {
        fields: [{ path, message: 'attached to a request already' }],
      });
  }
  return ids.map((id) => byId.get(id)!);
}

/** A link to a file kept elsewhere: a form may still carry one (the field's older meaning); it is not ours to check. */
const EXTERNAL = /^https?:\/\//i;

/** The uploaded files a field's value names (links to files kept elsewhere left out). */
const idsOf = (v: unknown): string[] =>
  (v === undefined || v === null || v === '' ? [] : Array.isArray(v) ? v.map(String) : [String(v)]).filter(
    (id) => !EXTERNAL.test(id),
  );

export interface FormFiles {
  /** field name → its files, in order */
  byField: Map<string, AttachmentRow[]>;
}

/**
 * The files a start (or draft) names in its attachment fields, checked against each field's
 * `accept`, `maxFileSize` and `max` and the tenant's files-per-instance limit. 422 naming the field.
 */
export async function formFiles(
  em: EntityManager,
  config: Config,
  principal: Principal,
  form: unknown,
  variables: Record<string, unknown>,
): Promise<FormFiles> {
  const byField = new Map<string, AttachmentRow[]>();
  const fields = (form as { fields?: FormFieldSpec[] } | null)?.fields;
  if (!Array.isArray(fields)) return { byField };
  let count = 0;
  for (const f of fields) {
    if (canonicalType(f?.type) !== 'attachment' || !Object.hasOwn(variables, f.name)) continue;
    const ids = idsOf(variables[f.name]);
    const path = `variables.${f.name}`;
    if (f.multiple && typeof f.max === 'number' && ids.length > f.max) throw refused(path, `at most ${f.max} files`);
    const rows = await ownUploads(em, principal, ids, path);
    for (const r of rows) {
      const spec = f as FormFieldSpec & { accept?: string[]; maxFileSize?: number };
      if (!accepted(spec.accept, { contentType: r.content_type, ext: r.ext }))
        throw refused(path, `${r.name} is ${r.content_type}; this field takes ${spec.accept!.join(', ')}`);
      if (spec.maxFileSize && Number(r.size) > spec.maxFileSize)
        throw refused(path, `${r.name} is larger than ${spec.maxFileSize} bytes`);
    }
    count += rows.length;
    if (rows.length) byField.set(f.name, rows);
  }
  if (count) {
    const { maxFilesPerInstance } = await limitsOf(em, config, principal.tenantId);
    if (count > maxFilesPerInstance) throw refused('variables', `at most ${maxFilesPerInstance} files per request`);
  }
  return { byField };
}

/**
 * A write of an instance's variables (a task's form, a decision's variables, a draft) naming files
 * in attachment fields: files already on the instance stay as they are; the writer's own uploads
 * are checked like a start's and attached to the instance. Answers the ids it attached (given back
 * with `detach` when the write is refused).
 */
export async function attachWrittenFiles(
  em: EntityManager,
  principal: Principal,
  instance: { id: string; definition_id: string },
  variables: Record<string, unknown> | undefined,
): Promise<string[]> {
  if (!variables) return [];
  const form = (await definitionOf(em, instance))?.form as { fields?: FormFieldSpec[] } | null;
  const fields = (form?.fields ?? []).filter(
    (f) => canonicalType(f?.type) === 'attachment' && Object.hasOwn(variables, f.name),
  );
  const bound: string[] = [];
  for (const f of fields) {
    const path = `variables.${f.name}`;
    const ids = idsOf(variables[f.name]);
    if (!ids.length) continue;
    const bad = ids.find((id) => !UUID.test(id));
    if (bad) throw referenceError([{ path, message: `no uploaded file ${bad} of yours` }])!;
    const rows = await em.execute<AttachmentRow[]>(
      `select * from attachments where tenant_id = ? and id = any(?::text[]) and not deleting`,
      [principal.tenantId, `{${ids.join(',')}}`],
    );
    const byId = new Map(rows.map((r) => [r.id, r]));
    const fresh: AttachmentRow[] = [];
    for (const id of ids) {
      const r = byId.get(id);
      if (r?.instance_id === instance.id) continue;
      if (!r || (r.source === 'upload' && r.uploader_id !== principal.userId))
        throw referenceError([{ path, message: `no uploaded file ${id} of yours` }])!;
      if (r.source !== 'upload')
        throw new AppError('ATTACHMENT_ATTACHED', `${path}: file ${id} is attached to a request already`, {
          fields: [{ path, message: 'attached to a request already' }],
        });
      const spec = f as FormFieldSpec & { accept?: string[]; maxFileSize?: number };
      if (!accepted(spec.accept, { contentType: r.content_type, ext: r.ext }))
        throw refused(path, `${r.name} is ${r.content_type}; this field takes ${spec.accept!.join(', ')}`);
      if (spec.maxFileSize && Number(r.size) > spec.maxFileSize)
        throw refused(path, `${r.name} is larger than ${spec.maxFileSize} bytes`);
      fresh.push(r);
    }
    if (!fresh.length) continue;
    const done = await em.execute(
      `update attachments set source = 'form', instance_id = ?, field = ?, attached_at = now()
       where tenant_id = ? and id = any(?::text[]) and source = 'upload' and not deleting returning id`,
      [instance.id, f.name, principal.tenantId, `{${fresh.map((r) => r.id).join(',')}}`],
    );
    bound.push(...done.map((d) => String(d.id)));
    if (done.length !== fresh.length) {
      await detach(em, principal.tenantId, bound);
      throw new AppError('ATTACHMENT_ATTACHED', `${path}: a file was attached elsewhere meanwhile`);
    }
  }
  return bound;
}

/** Attaches a start's files to its instance (in the caller's transaction, beside the instance's insert). */
export async function attachFormFiles(em: EntityManager, tenantId: string, instanceId: string, files: FormFiles) {
  for (const [field, rows] of files.byField) {
    const done = await em.execute(
      `update attachments set source = 'form', instance_id = ?, field = ?, attached_at = now()
       where tenant_id = ? and id = any(?::text[]) and source = 'upload' and not deleting returning id`,
      [instanceId, field, tenantId, `{${rows.map((r) => r.id).join(',')}}`],
    );
    if (done.length !== rows.length)
      throw new AppError('ATTACHMENT_ATTACHED', `variables.${field}: a file was attached elsewhere meanwhile`);
  }
}

/** The files of a comment or task action: checked, counted against the instance, and attached. */
export async function attachToTask(
  em: EntityManager,
  config: Config,
  principal: Principal,
  ids: string[],
  where: { source: 'comment' | 'action'; instanceId: string; taskId: string; commentId?: string },
): Promise<{ refs: AttachmentRef[]; bound: string[] }> {
  const rows = await ownUploads(em, principal, ids, 'attachments', where);
  if (!rows.length) return { refs: [], bound: [] };
  const fresh = rows.filter((r) => r.source === 'upload');
  if (fresh.length) {
    const { maxFilesPerInstance } = await limitsOf(em, config, principal.tenantId);
    const [{ n }] = await em.execute(
      'select count(*)::int as n from attachments where tenant_id = ? and instance_id = ? and not deleting',
      [principal.tenantId, where.instanceId],
    );
    if (n + fresh.length > maxFilesPerInstance)
      throw refused('attachments', `at most ${maxFilesPerInstance} files per request`);
    const done = await em.execute(
      `update attachments set source = ?, instance_id = ?, task_id = ?, comment_id = ?, attached_at = now()
       where tenant_id = ? and id = any(?::text[]) and source = 'upload' and not deleting returning id`,
      [
        where.source,
        where.instanceId,
        where.taskId,
        where.commentId ?? null,
        principal.tenantId,
        `{${fresh.map((r) => r.id).join(',')}}`,
      ],
    );
    if (done.length !== fresh.length)
      throw new AppError('ATTACHMENT_ATTACHED', 'attachments: a file was attached elsewhere meanwhile');
  }
  return { refs: rows.map(refOf), bound: fresh.map((r) => r.id) };
}

/** An action refused after its files were attached: they are the uploader's again. */
export async function detach(em: EntityManager, tenantId: string, ids: string[]) {
  if (!ids.length) return;
  await em.execute(
    `update attachments set source = 'upload', instance_id = null, task_id = null, comment_id = null, field = null, attached_at = null
     where tenant_id = ? and id = any(?::text[])`,
    [tenantId, `{${ids.join(',')}}`],
  );
}

/** The files of comments, by comment id. */
export async function commentFiles(em: EntityManager, tenantId: string, commentIds: string[]) {
  const out = new Map<string, AttachmentRef[]>();
  if (!commentIds.length) return out;
  const rows = await em.execute<AttachmentRow[]>(
    `select * from attachments where tenant_id = ? and comment_id = any(?::text[]) and not deleting order by created_at, id`,
    [tenantId, `{${commentIds.join(',')}}`],
  );
  for (const r of rows) out.set(r.comment_id!, [...(out.get(r.comment_id!) ?? []), refOf(r)]);
  return out;
}

/** Marks an instance's files for the sweeper (in the transaction that deletes the instance). */
export async function markInstanceFilesDeleted(em: EntityManager, tenantId: string, instanceId: string) {
  await em.execute('update attachments set deleting = true where tenant_id = ? and instance_id = ?', [
    tenantId,
    instanceId,
  ]);
}

/** The uploader deletes a file not yet attached. */
export async function deleteUpload(em: EntityManager, principal: Principal, id: string) {
  const row = await readableAttachment(em, principal, id);
  if (row.uploader_id !== principal.userId) throw new AppError('NOT_FOUND', `No attachment ${id}`);
  const done = await em.execute(
    `update attachments set deleting = true where tenant_id = ? and id = ? and source = 'upload' and not deleting returning id`,
    [principal.tenantId, id],
  );
  if (!done.length) throw new AppError('INVALID_STATE', 'The file is attached: it stays with its request');
  return { id, deleted: true as const };
}
