// Stored forms (docs/forms.md): drafts, published versions of a key, retirement, and the
// resolution of a process's `formKey` at deploy.
import type { EntityManager } from '@mikro-orm/postgresql';
import { finding, formSchemaProblems, problemAt } from '../../dsl/index.js';
import { catalogueColumns, versionedCatalogue } from './versioned.js';
import { AppError } from '../errors.js';
import { StoredForm, type IStoredForm } from '../db/entities/index.js';
import { rowView } from '../db/views.js';
import { requireRow, type RowLock } from '../db/row-lookup.js';

export function formView(f: IStoredForm) {
  return rowView(f, [...catalogueColumns.before, 'schema', ...catalogueColumns.after, 'publishedAt?']);
}
export type FormView = ReturnType<typeof formView>;

export interface FormInput {
  key: string;
  name: string;
  category?: string | null;
  description?: string | null;
  schema: Record<string, unknown>;
}

/** 422 naming every field of the schema that does not validate. */
function checkSchema(schema: unknown) {
  const problems = formSchemaProblems(schema).map((p) => ({
    field: p.field ? `schema.${p.field}` : 'schema',
    code: p.code,
    params: p.params,
    message: p.message,
  }));
  if (problems.length) {
    const more = problems.length > 1 ? ` (and ${problems.length - 1} more)` : '';
    throw new AppError(
      'FORM_INVALID',
      `The form does not validate: ${problems[0].field}: ${problems[0].message}${more}`,
      {
        problems,
      },
    );
  }
}

const text = (v: string | null | undefined) => (typeof v === 'string' && v.trim() ? v : null);

export const getForm = (em: EntityManager, tenantId: string, id: string, lock?: RowLock) =>
  requireRow(em, StoredForm, { tenantId, id }, `form ${id}`, lock);

/** The latest published version of a key (retired versions and drafts are not used), or null. */
export async function latestPublished(em: EntityManager, tenantId: string, key: string) {
  return em.findOne(StoredForm, { tenantId, key, status: 'published' }, { orderBy: { version: 'desc' } });
}

export async function getLatestByKey(em: EntityManager, tenantId: string, key: string) {
  const row = await latestPublished(em, tenantId, key);
  if (!row) throw new AppError('NOT_FOUND', `No published version of form ${key}`);
  return row;
}

const catalogue = versionedCatalogue(StoredForm, 'form', formView, 'publishedAt');

/** Drafts and versions, newest first (filters: key, name, category, status). */
export const listForms = catalogue.list;

/** Published and retired versions of a key, newest first. */
export const versionsByKey = catalogue.versionsByKey;

/** A new draft; a key that has versions already gets its next version from this draft when published. */
export async function createForm(em: EntityManager, tenantId: string, userId: string, input: FormInput) {
  checkSchema(input.schema);
  return catalogue.insertDraft(em, tenantId, userId, {
    key: input.key,
    name: input.name,
    category: text(input.category),
    description: text(input.description),
    schema: input.schema,
  });
}

function requireDraft(row: IStoredForm) {
  if (row.status !== 'draft')
    throw new AppError('NOT_DRAFT', `Form ${row.id} is ${row.status}: only a draft can be changed; create a new draft`);
}

/** Partial update of a draft (the key stays). */
export async function updateForm(
  em: EntityManager,
  tenantId: string,
  userId: string,
  id: string,
  patch: Partial<Omit<FormInput, 'key'>>,
) {
  requireDraft(await getForm(em, tenantId, id));
  if (patch.schema !== undefined) checkSchema(patch.schema);
  return em.transactional(async (tx) => {
    const row = await getForm(tx, tenantId, id, { forUpdate: true });
    requireDraft(row);
    tx.assign(row, {
      ...(patch.name !== undefined ? { name: patch.name } : {}),
      ...(patch.category !== undefined ? { category: text(patch.category) } : {}),
      ...(patch.description !== undefined ? { description: text(patch.description) } : {}),
      ...(patch.schema !== undefined ? { schema: patch.schema } : {}),
      updatedBy: userId,
    });
    return row;
  });
}

/** Draft → the key's next version (earlier versions stay published and readable). */
export async function publishForm(em: EntityManager, tenantId: string, userId: string, id: string) {
  const current = await getForm(em, tenantId, id);
  requireDraft(current);
  checkSchema(current.schema);
  return em.transactional(async (tx) => {
    await tx.execute('select pg_advisory_xact_lock(hashtext(?))', [`form:${tenantId}:${current.key}`]);
    const row = await getForm(tx, tenantId, id, { forUpdate: true });
    requireDraft(row);
    const [next] = await tx.execute<Array<{ next: number }>>(
      'select coalesce(max(version), 0) + 1 as next from forms where tenant_id = ? and key = ?',
      [tenantId, row.key],
    );
    tx.assign(row, { version: Number(next.next), status: 'published', updatedBy: userId, publishedAt: new Date() });
    return row;
  });
}

/** Published → retired: deploys no longer pick it; definitions pinned to it keep their copy. */
export async function retireForm(em: EntityManager, tenantId: string, userId: string, id: string) {
  const row = await getForm(em, tenantId, id);
  if (row.status === 'draft') throw new AppError('NOT_DRAFT', 'A draft is not published: delete it instead');
  if (row.status === 'retired') return row;
  row.status = 'retired';
  row.updatedBy = userId;
  await em.flush();
  return row;
}

export async function deleteDraft(em: EntityManager, tenantId: string, id: string) {
  const row = await getForm(em, tenantId, id);
  requireDraft(row);
  em.remove(row);
  await em.flush();
}

/**
 * A process document with `formType: "system"` gets its stored form: the latest published
 * version of `formKey` (or the published `formVersion` it names) is copied into
 * `additionalInfo.form` and its version into `formVersion`, so the deployed snapshot is pinned.
 * Other documents come back unchanged.
 */
export async function resolveSystemForm(em: EntityManager, tenantId: string, dsl: unknown): Promise<unknown> {
  const chain = (dsl as { ruleChain?: { additionalInfo?: Record<string, unknown> } } | null)?.ruleChain;
  const info = chain?.additionalInfo;
  if (!info || typeof info !== 'object' || info.formType !== 'system') return dsl;
  const key = info.formKey;
  if (typeof key !== 'string' || !key.trim()) return dsl; // the DSL validator names the missing key
  const wanted = info.formVersion;
  const row =
    typeof wanted === 'number'
      ? await em.findOne(StoredForm, { tenantId, key, version: wanted, status: 'published' })
      : await latestPublished(em, tenantId, key);
  if (!row)
    throw new AppError(
      'FORM_UNKNOWN',
      typeof wanted === 'number'
        ? `Form ${key} has no published version ${wanted}`
        : `Form ${key} has no published version`,
      {
        problems: [
          problemAt(
            null,
            'ruleChain.additionalInfo.formKey',
            finding('process.formUnknown', typeof wanted === 'number' ? { key, version: wanted } : { key }),
          ),
        ],
      },
    );
  // A designer's top-level `form` would win over the stored one (parse.ts): it goes.
  const { form: _designed, ...d } = dsl as Record<string, unknown> & { ruleChain: Record<string, unknown> };
  return {
    ...d,
    ruleChain: { ...d.ruleChain, additionalInfo: { ...info, form: row.schema, formVersion: row.version } },
  };
}
