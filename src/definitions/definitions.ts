import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import {
  compileProcess,
  finding,
  parseProcess,
  problemAt,
  processWarnings,
  validateConditions,
  validateExpressions,
  type Problem,
  type ProcessDocument,
} from '../../dsl/index.js';
import { refuseUnacceptable } from '../input-rules.js';
import { catalogueColumns, versionedCatalogue } from './versioned.js';
import { AppError } from '../errors.js';
import { ProcessDefinition, type IProcessDefinition } from '../db/entities/index.js';
import type { PageOpts } from '../paging.js';
import { rowView } from '../db/views.js';
import { requireRow, type RowLock } from '../db/row-lookup.js';
import { bindingsFor, callableNames } from './service-functions.js';
import { agentIds, skillNames } from './ai-agents.js';
import { resolveSystemForm } from './forms.js';
import { definitionOf } from '../read-model/read-model.js';
import { bound } from '../db/bound.js';
import { redactUrl } from '../shapes.js';

type DslInput = Record<string, unknown>;

export function definitionView(d: IProcessDefinition) {
  const view = rowView(d, [...catalogueColumns.before, 'dsl', ...catalogueColumns.after, 'deployedAt?']);
  return { ...view, dsl: withRedactedFunctions(view.dsl as unknown as ProcessDocument) as unknown as typeof view.dsl };
}

/**
 * A document whose pinned webhook functions answer their URL's credentials as `***` (docs/http.md
 * "Credentials in URLs"): every reader of a definition sees its document; the stored document
 * keeps the whole URL, which the webhook activity calls.
 */
export function withRedactedFunctions(doc: ProcessDocument): ProcessDocument {
  if (!doc?.functions) return doc;
  const functions = Object.fromEntries(
    Object.entries(doc.functions).map(([name, f]) => [name, f.url ? { ...f, url: redactUrl(f.url) } : f]),
  );
  return { ...doc, functions };
}
export type DefinitionView = ReturnType<typeof definitionView>;

// ---------- DSL ----------

function invalid(problems: Problem[]): AppError {
  const first = problems[0];
  const where = first?.nodeId ? `node ${first.nodeId}: ` : '';
  const more = problems.length > 1 ? ` (and ${problems.length - 1} more)` : '';
  return new AppError(
    'DSL_INVALID',
    `The process definition does not validate: ${where}${first?.message ?? 'invalid'}${more}`,
    { problems },
  );
}

/**
 * What the deploy validator found: the normalised document, or every problem and the refusal deploy
 * answers with; either way the warnings (dsl/variables.ts), which never refuse.
 */
export type CheckedProcess = { warnings: Problem[] } & (
  { ok: true; doc: ProcessDocument } | { ok: false; problems: Problem[]; refusal: AppError }
);

/** The document with its stored form (`formType: "system"`), or as it is with the 422 an unknown form gets. */
async function withSystemForm(em: EntityManager, tenantId: string, dsl: unknown) {
  try {
    return { dsl: await resolveSystemForm(em, tenantId, dsl), unknownForm: null };
  } catch (err) {
    if (err instanceof AppError && err.type === 'FORM_UNKNOWN') return { dsl, unknownForm: err };
    throw err;
  }
}

/**
 * The one deploy validator — deploy, import, publishing a draft and POST /validate run it: the
 * stored form a document names, then the DSL (shape and limits, older keys translated, nodes,
 * graph, conditions typed by the form, the catalogue's service functions). Writes nothing.
 */
export async function checkProcess(em: EntityManager, tenantId: string, dsl: unknown): Promise<CheckedProcess> {
  const { dsl: resolved, unknownForm } = await withSystemForm(em, tenantId, dsl);
  const result = compileProcess(resolved, {
    functions: await callableNames(em, tenantId),
    agents: await agentIds(em, tenantId),
    skills: await skillNames(em, tenantId),
  });
  const parsed = result.ok ? result.doc : parseProcess(resolved).doc;
  const warnings = parsed ? processWarnings(parsed) : [];
  // Deploy stops at an unknown form (422 FORM_UNKNOWN); the list still names what else is wrong.
  if (unknownForm) {
    const formProblems = (unknownForm.data as { problems: Problem[] }).problems;
    const problems = [...formProblems, ...(result.ok ? [] : result.problems)];
    return { ok: false, problems, refusal: unknownForm, warnings };
  }
  return result.ok
    ? { ...result, warnings }
    : { ok: false, problems: result.problems, refusal: invalid(result.problems), warnings };
}

/** Full validation (as at deploy): the normalised document, or deploy's 422 with every problem. */
async function compile(em: EntityManager, tenantId: string, dsl: unknown): Promise<ProcessDocument> {
  const checked = await checkProcess(em, tenantId, dsl);
  if (!checked.ok) throw checked.refusal;
  return checked.doc;
}

/** POST /validate: the deploy validator's verdict, nothing written (docs/definitions.md#live-validation). */
export async function validateDefinition(em: EntityManager, tenantId: string, dsl: DslInput) {
  const checked = await checkProcess(em, tenantId, dsl);
  const errors = checked.ok ? [] : checked.problems;
  // Warnings are listed after the errors and leave `valid` true: deploy accepts them.
  const problems = [
    ...errors.map((p) => ({ ...p, severity: 'error' as const })),
    ...checked.warnings.map((p) => ({ ...p, severity: 'warning' as const })),
  ];
  return { valid: checked.ok, problems: problems.map((p) => ({ ...p, field: p.field || null })) };
}

/**
 * Pins the catalogue functions the document names into it (docs/service-functions.md), inside the
 * deploy's transaction; one removed since `compile` is the same 422 as at validation.
 */
async function pinFunctions(tx: EntityManager, tenantId: string, doc: ProcessDocument): Promise<ProcessDocument> {
  const { functions, missing } = await bindingsFor(tx, tenantId, doc);
  if (missing.length) {
    throw invalid(
      doc.metadata.nodes
        .filter((n) => missing.includes((n.configuration as { functionName?: string } | undefined)?.functionName ?? ''))
        .map((n) =>
          problemAt(
            n.id,
            'configuration.functionName',
            finding('node.functionRemoved', { name: (n.configuration as { functionName: string }).functionName }),
          ),
        ),
    );
  }
  return Object.keys(functions).length ? { ...doc, functions } : doc;
}

/** Drafts are work in progress: they need only an identifiable document; the rest is checked at publish. */
function parseDraft(dsl: unknown): ProcessDocument {
  const { doc, problems } = parseProcess(dsl);
  if (!doc?.ruleChain?.id)
    throw invalid(problems.length ? problems : [problemAt(null, 'ruleChain.id', finding('document.draftKeyRequired'))]);
  return doc;
}

const text = (v: unknown) => (typeof v === 'string' && v.trim() ? v : null);

/** The columns a document determines. */
function columnsOf(doc: ProcessDocument) {
  const info = (doc.ruleChain.additionalInfo ?? {}) as Record<string, unknown>;
  return {
    key: doc.ruleChain.id,
    name: text(doc.ruleChain.name) ?? doc.ruleChain.id,
    category: text(info.category),
    description: text(info.description),
    form: info.form ?? null,
  };
}

/** A stored form (`formType: "system"`) types the conditions like an embedded one. */
export async function checkConditions(
  em: EntityManager,
  tenantId: string,
  input: { dsl?: DslInput; expressions?: string[] },
) {
  if (input.expressions) return validateExpressions(input.expressions);
  const { doc, problems } = parseProcess(await resolveSystemForm(em, tenantId, input.dsl));
  if (!doc) throw invalid(problems);
  return validateConditions(doc);
}

/** The multipart `file`: an uploaded file, or a plain part carrying the JSON text. */
export async function readDslFile(file: File | string): Promise<DslInput> {
  let dsl: DslInput;
  const name = typeof file === 'string' ? 'file' : file.name || 'file';
  try {
    dsl = JSON.parse(typeof file === 'string' ? file : await file.text());
  } catch {
    throw new AppError('MALFORMED_JSON', `The file ${name} is not JSON`);
  }
  // The same rule as for JSON bodies (the multipart body skips the edge check).
  refuseUnacceptable(dsl, 'file');
  return dsl;
}

// ---------- reads ----------

export const getDefinition = (em: EntityManager, tenantId: string, id: string, lock?: RowLock) =>
  requireRow(em, ProcessDefinition, { tenantId, id }, `process definition ${id}`, lock);

/** The version instances of `key` start from (404 when none is active). */
export const getActiveDefinition = (em: EntityManager, tenantId: string, key: string) =>
  requireRow(em, ProcessDefinition, { tenantId, key, status: 'active' }, `active version of process ${key}`);

/**
 * What a start needs of the active version of `key`: its identity from one narrow row, its DSL and
 * form from the cache of published definitions (read-model.ts `definitionOf`: they never change),
 * so a start neither reads nor hydrates the whole definition each time.
 */
export async function activeForStart(em: EntityManager, tenantId: string, key: string) {
  const [row] = await bound<{ id: string; key: string; version: number; name: string }>(
    em,
    `select id, key, version, name from process_definitions where tenant_id = ? and key = ? and status = 'active'`,
    [tenantId, key],
    { prepare: true },
  );
  // Deleted between the two reads: as if it had never been active.
  const published = row ? await definitionOf(em, { definition_id: row.id }) : null;
  if (!row || !published) throw new AppError('NOT_FOUND', `No active version of process ${key}`);
  return { ...row, dsl: published.dsl, form: published.form };
}

const catalogue = versionedCatalogue(ProcessDefinition, 'process', definitionView, 'deployedAt');

/** Drafts and versions, newest first (filters: key, name, category, status, search text `q`). */
export const listDefinitions = catalogue.list;

/** Published versions of a key, newest first (drafts have no version and are left out). */
export const versionsByKey = catalogue.versionsByKey;

export async function versionsById(em: EntityManager, tenantId: string, id: string, opts: PageOpts) {
  const row = await getDefinition(em, tenantId, id);
  return catalogue.versionsOf(em, tenantId, row.key, opts);
}

/** Active definitions grouped by category (uncategorised last, as `category: null`). */
export async function listCategories(em: EntityManager, tenantId: string) {
  const rows = await em.find(
    ProcessDefinition,
    { tenantId, status: 'active' },
    { orderBy: { name: 'asc', key: 'asc' } },
  );
  const groups = new Map<
    string | null,
    Array<{ id: string; key: string; name: string; version: number | null; description: string | null }>
  >();
  for (const d of rows) {
    const category = d.category ?? null;
    if (!groups.has(category)) groups.set(category, []);
    groups
      .get(category)!
      .push({ id: d.id, key: d.key, name: d.name, version: d.version ?? null, description: d.description ?? null });
  }
  return [...groups.entries()]
    .sort(([a], [b]) => (a === null ? 1 : b === null ? -1 : a.localeCompare(b)))
    .map(([category, definitions]) => ({ category, definitions }));
}

// ---------- lifecycle ----------

/** Runs `fn` in one transaction holding the key's advisory lock, so publications of one key serialise. */
function withKeyLock<T>(
  em: EntityManager,
  tenantId: string,
  key: string,
  fn: (tx: EntityManager) => Promise<T>,
): Promise<T> {
  return em.transactional(async (tx) => {
    await tx.execute('select pg_advisory_xact_lock(hashtext(?))', [`${tenantId}:${key}`]);
    return fn(tx);
  });
}

async function nextVersion(tx: EntityManager, tenantId: string, key: string): Promise<number> {
  const [row] = await tx.execute<Array<{ next: number }>>(
    'select coalesce(max(version), 0) + 1 as next from process_definitions where tenant_id = ? and key = ?',
    [tenantId, key],
  );
  return Number(row.next);
}

/** Retires the key's active version (before another becomes active: the partial unique index allows one). */
async function retireActive(tx: EntityManager, tenantId: string, key: string, userId: string) {
  await tx.nativeUpdate(
    ProcessDefinition,
    { tenantId, key, status: 'active' },
    { status: 'retired', updatedBy: userId, updatedAt: new Date() },
  );
}

function requireDraft(row: IProcessDefinition) {
  if (row.status !== 'draft')
    throw new AppError('NOT_DRAFT', `Definition ${row.id} is ${row.status}: only a draft can be changed`);
}

/** Re-reads a row under the key lock; a draft whose key changed meanwhile is a conflict. */
async function lockRow(tx: EntityManager, tenantId: string, id: string, key: string) {
  const row = await getDefinition(tx, tenantId, id, { forUpdate: true });
  if (row.key !== key) throw new AppError('CONFLICT', 'The draft changed while being published; retry');
  return row;
}

/** Publishes a locked draft row as the key's next version. */
async function publishDraft(tx: EntityManager, row: IProcessDefinition, userId: string) {
  const doc = await pinFunctions(tx, row.tenantId, await compile(tx, row.tenantId, row.dsl));
  const cols = columnsOf(doc);
  if (cols.key !== row.key) throw new AppError('CONFLICT', 'The draft changed while being published; retry');
  const version = await nextVersion(tx, row.tenantId, row.key);
  await retireActive(tx, row.tenantId, row.key, userId);
  tx.assign(row, {
    ...cols,
    dsl: doc as unknown as DslInput,
    version,
    status: 'active',
    updatedBy: userId,
    deployedAt: new Date(),
  });
  return row;
}

/** JSON with object keys sorted at every level: jsonb stores keys in its own order, so key order must not count. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
    entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

/** Deploy's duplicate filter: the key's active version when it holds this same document (compiled and pinned). */
async function activeIfSame(tx: EntityManager, tenantId: string, key: string, doc: ProcessDocument) {
  const active = await tx.findOne(ProcessDefinition, { tenantId, key, status: 'active' });
  return active && canonical(active.dsl) === canonical(doc) ? (active as IProcessDefinition) : null;
}

/** What deploy answers: the version now active, and whether it was already (`skipIfUnchanged`, nothing written). */
export interface Deployed {
  definition: IProcessDefinition;
  unchanged: boolean;
}

/** Deploys a document: compiled, then inserted as the next active version (unless unchanged and asked to skip). */
async function deployDocument(
  em: EntityManager,
  tenantId: string,
  userId: string,
  dsl: unknown,
  skipIfUnchanged = false,
): Promise<Deployed> {
  const checked = await compile(em, tenantId, dsl);
  const cols = columnsOf(checked);
  return withKeyLock(em, tenantId, cols.key, async (tx) => {
    const doc = await pinFunctions(tx, tenantId, checked);
    const same = skipIfUnchanged ? await activeIfSame(tx, tenantId, cols.key, doc) : null;
    if (same) return { definition: same, unchanged: true };
    const version = await nextVersion(tx, tenantId, cols.key);
    await retireActive(tx, tenantId, cols.key, userId);
    const definition = tx.create(ProcessDefinition, {
      id: randomUUID(),
      tenantId,
      ...cols,
      dsl: doc as unknown as DslInput,
      version,
      status: 'active',
      createdBy: userId,
      updatedBy: userId,
      deployedAt: new Date(),
    } as any) as IProcessDefinition;
    return { definition, unchanged: false };
  });
}

/**
 * Every deploy is the next version; with `skipIfUnchanged` (Camunda's duplicate filtering) a document equal
 * to the active version's, keys in any order, answers that version and writes nothing (a draft stays a draft).
 */
export async function deploy(
  em: EntityManager,
  tenantId: string,
  userId: string,
  input: { dsl?: DslInput; draftId?: string; skipIfUnchanged?: boolean },
): Promise<Deployed> {
  const skip = input.skipIfUnchanged === true;
  if (input.draftId === undefined) return deployDocument(em, tenantId, userId, input.dsl, skip);
  const draft = await getDefinition(em, tenantId, input.draftId);
  requireDraft(draft);
  return withKeyLock(em, tenantId, draft.key, async (tx) => {
    const row = await lockRow(tx, tenantId, draft.id, draft.key);
    requireDraft(row);
    if (skip) {
      const doc = await pinFunctions(tx, tenantId, await compile(tx, tenantId, row.dsl));
      const same = await activeIfSame(tx, tenantId, row.key, doc);
      if (same) return { definition: same, unchanged: true };
    }
    return { definition: await publishDraft(tx, row, userId), unchanged: false };
  });
}

/** Import is deploy from a file or body: an existing key gets the next version. */
export function importDsl(em: EntityManager, tenantId: string, userId: string, dsl: DslInput | undefined) {
  if (dsl === undefined)
    throw new AppError('VALIDATION_FAILED', 'Send a multipart field `file` or a JSON body { dsl }');
  return deployDocument(em, tenantId, userId, dsl).then((d) => d.definition);
}

export async function createDraft(em: EntityManager, tenantId: string, userId: string, dsl: DslInput) {
  return catalogue.insertDraft(em, tenantId, userId, { ...columnsOf(parseDraft(dsl)), dsl });
}

export async function updateDraft(em: EntityManager, tenantId: string, userId: string, id: string, dsl: DslInput) {
  requireDraft(await getDefinition(em, tenantId, id));
  const cols = columnsOf(parseDraft(dsl));
  return em.transactional(async (tx) => {
    // The row lock orders this against a concurrent publication of the same draft.
    const row = await getDefinition(tx, tenantId, id, { forUpdate: true });
    requireDraft(row);
    tx.assign(row, { ...cols, dsl, updatedBy: userId });
    return row;
  });
}

/** Draft → published as the next version; retired → active again (the current one retired); active → no-op. */
export async function activate(em: EntityManager, tenantId: string, userId: string, id: string) {
  const current = await getDefinition(em, tenantId, id);
  if (current.status === 'active') return current;
  return withKeyLock(em, tenantId, current.key, async (tx) => {
    const row = await lockRow(tx, tenantId, id, current.key);
    if (row.status === 'active') return row;
    if (row.status === 'draft') return publishDraft(tx, row, userId);
    await retireActive(tx, tenantId, row.key, userId);
    tx.assign(row, { status: 'active', updatedBy: userId });
    return row;
  });
}

/** Active → retired (the key then has no active version); retired → no-op; draft → 409. */
export async function retire(em: EntityManager, tenantId: string, userId: string, id: string) {
  const current = await getDefinition(em, tenantId, id);
  if (current.status === 'draft')
    throw new AppError('NOT_DRAFT', 'A draft is not published: delete it instead of retiring it');
  if (current.status === 'retired') return current;
  return withKeyLock(em, tenantId, current.key, async (tx) => {
    const row = await lockRow(tx, tenantId, id, current.key);
    if (row.status === 'active') tx.assign(row, { status: 'retired', updatedBy: userId });
    return row;
  });
}

/** Whether an instance (running or archived) was started from this version. */
async function inUse(em: EntityManager, id: string): Promise<boolean> {
  for (const table of ['instances', 'instances_archive']) {
    // The instance tables come with a later migration; before it nothing can use a definition.
    const [{ present }] = await em.execute<Array<{ present: boolean }>>(
      'select to_regclass(?) is not null as present',
      [`public.${table}`],
    );
    if (present && (await em.execute(`select 1 from ${table} where definition_id = ? limit 1`, [id])).length)
      return true;
  }
  return false;
}

export async function deleteDefinition(em: EntityManager, tenantId: string, id: string): Promise<void> {
  const row = await getDefinition(em, tenantId, id);
  if (row.status !== 'draft' && (await inUse(em, id)))
    throw new AppError('IN_USE', `Version ${row.version} of ${row.key} has instances`);
  em.remove(row);
  await em.flush();
}
