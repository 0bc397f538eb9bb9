// The per-tenant service-function catalogue (docs/service-functions.md): how a serviceTask's
// functionName runs when it is not a built-in — a Temporal activity on the tenant's own task queue,
// or a signed webhook. Deploy pins the entries a document names (bindingsFor); the webhook
// secret stays here and is read by the webhook activity at call time. A webhook `url` takes no
// `user:password@` (the body schema refuses it); its secret query parameters are stored and used,
// and answered as `***` (docs/http.md "Credentials in URLs").
import { randomUUID } from 'node:crypto';
import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { builtinDescriptions, serviceFunctionNames } from './builtin-functions.js';
import type { FunctionBinding, ProcessDocument } from '../../dsl/index.js';
import { AppError } from '../errors.js';
import {
  ServiceFunction,
  type IServiceFunction,
  type RetryPolicy,
  type ServiceFunctionKind,
} from '../db/entities/index.js';
import type { Page, PageOpts } from '../paging.js';
import { redactUrl, storedUrl } from '../shapes.js';
import { flushUnique, requireRow, type RowLock } from '../db/row-lookup.js';

export interface FunctionInput {
  kind: ServiceFunctionKind;
  taskQueue?: string;
  activityType?: string;
  url?: string;
  secret?: string;
  timeoutMs: number;
  retry: RetryPolicy;
  description?: string | null;
  inputSchema?: Record<string, unknown> | null;
  outputSchema?: Record<string, unknown> | null;
}

const isBuiltin = (name: string) => serviceFunctionNames.includes(name);

function builtinView(name: string) {
  return {
    id: null,
    name,
    kind: 'builtin' as const,
    builtin: true,
    taskQueue: null,
    activityType: null,
    url: null,
    hasSecret: false,
    timeoutMs: 30_000,
    retry: null,
    description: builtinDescriptions[name] ?? null,
    inputSchema: null,
    outputSchema: null,
    createdAt: null,
    updatedAt: null,
  };
}

export function functionView(row: IServiceFunction) {
  return {
    id: row.id as string | null,
    name: row.name,
    kind: row.kind as ServiceFunctionKind | 'builtin',
    builtin: false,
    taskQueue: row.taskQueue ?? null,
    activityType: row.activityType ?? null,
    // Readers with definition access see it: its credentials as `***`.
    url: row.url ? redactUrl(row.url) : null,
    // Never the secret itself: only whether the webhook has one (it always does).
    hasSecret: row.kind === 'webhook',
    timeoutMs: row.timeoutMs,
    retry: row.retry as RetryPolicy | null,
    description: row.description ?? null,
    inputSchema: row.inputSchema ?? null,
    outputSchema: row.outputSchema ?? null,
    createdAt: row.createdAt.toISOString() as string | null,
    updatedAt: row.updatedAt.toISOString() as string | null,
  };
}
export type FunctionView = ReturnType<typeof functionView>;

/** Built-ins first (read-only), then the tenant's entries by name. */
export async function listFunctions(em: EntityManager, tenantId: string, opts: PageOpts): Promise<Page<FunctionView>> {
  const rows = await em.find(ServiceFunction, { tenantId }, { orderBy: { name: 'asc' } });
  const all: FunctionView[] = [...serviceFunctionNames.map(builtinView), ...rows.map(functionView)];
  const from = (opts.page - 1) * opts.pageSize;
  return { items: all.slice(from, from + opts.pageSize), total: all.length, page: opts.page, pageSize: opts.pageSize };
}

const findRow = (em: EntityManager, tenantId: string, name: string, lock?: RowLock) =>
  requireRow(em, ServiceFunction, { tenantId, name }, `service function ${name}`, lock);

export async function getFunction(em: EntityManager, tenantId: string, name: string): Promise<FunctionView> {
  if (isBuiltin(name)) return builtinView(name);
  return functionView(await findRow(em, tenantId, name));
}

function refuseBuiltin(name: string) {
  if (isBuiltin(name))
    throw new AppError('BUILTIN_FUNCTION', `${name} is a built-in service function: it cannot be changed or removed`);
}

/**
 * The columns an input sets; the kind decides which of queue/type and url/secret are kept. `kept`:
 * the stored secret (kept when none is sent) and url (kept when the answered one is sent back).
 */
function columnsOf(input: FunctionInput, kept: { secret: string | null; url: string | null }) {
  const activity = input.kind === 'activity';
  const secret = activity ? null : (input.secret ?? kept.secret);
  // A create without one is refused by the body schema; an update that turns an activity into a
  // webhook has no secret to keep: the entry's state, not the body's shape, refuses it.
  if (!activity && !secret)
    throw new AppError(
      'INVALID_STATE',
      'A webhook needs a secret (at least 16 characters) to sign its calls: this entry has none to keep',
      { field: 'secret' },
    );
  return {
    kind: input.kind,
    taskQueue: activity ? input.taskQueue! : null,
    activityType: activity ? input.activityType! : null,
    url: activity ? null : storedUrl('url', input.url!, kept.url),
    secret,
    timeoutMs: input.timeoutMs,
    retry: input.retry,
    description: input.description ?? null,
    inputSchema: input.inputSchema ?? null,
    outputSchema: input.outputSchema ?? null,
  };
}

export async function createFunction(
  em: EntityManager,
  tenantId: string,
  userId: string,
  input: FunctionInput & { name: string },
): Promise<FunctionView> {
  refuseBuiltin(input.name);
  const cols = columnsOf(input, { secret: null, url: null });
  if (await em.count(ServiceFunction, { tenantId, name: input.name }))
    throw new AppError('ALREADY_EXISTS', `A service function ${input.name} already exists`);
  const row = em.create(ServiceFunction, {
    id: randomUUID(),
    tenantId,
    name: input.name,
    ...cols,
    createdBy: userId,
    updatedBy: userId,
  } as any) as IServiceFunction;
  await flushUnique(em, `A service function ${input.name} already exists`);
  return functionView(row);
}

export async function updateFunction(
  em: EntityManager,
  tenantId: string,
  userId: string,
  name: string,
  input: FunctionInput,
): Promise<FunctionView> {
  refuseBuiltin(name);
  const row = await findRow(em, tenantId, name);
  await em.populate(row, ['secret'] as never);
  em.assign(row, { ...columnsOf(input, { secret: row.secret ?? null, url: row.url ?? null }), updatedBy: userId });
  await em.flush();
  return functionView(row);
}

/** Active definitions whose pinned functions name `name`. */
async function activeUsers(em: EntityManager, tenantId: string, name: string) {
  return em.execute<Array<{ id: string; key: string; version: number }>>(
    `select id, key, version from process_definitions
      where tenant_id = ? and status = 'active' and (dsl -> 'functions' -> ?) is not null order by key`,
    [tenantId, name],
  );
}

export async function deleteFunction(em: EntityManager, tenantId: string, name: string): Promise<void> {
  refuseBuiltin(name);
  await findRow(em, tenantId, name);
  await em.transactional(async (tx) => {
    // The row lock waits for a deploy pinning this entry (it holds a share lock) to commit, so the
    // check below sees that definition.
    const row = await findRow(tx, tenantId, name, { forUpdate: true });
    const users = await activeUsers(tx, tenantId, name);
    if (users.length) {
      const named = users.map((d) => `${d.key} v${d.version}`).join(', ');
      throw new AppError('IN_USE', `Service function ${name} is used by active definitions: ${named}`, {
        definitions: users.map((d) => ({ id: d.id, key: d.key, version: Number(d.version) })),
      });
    }
    tx.remove(row);
  });
}

// ---------- deploy ----------

/** Every name a serviceTask of this tenant may call: the built-ins and the catalogue. */
export async function callableNames(em: EntityManager, tenantId: string): Promise<string[]> {
  const rows = await em.find(ServiceFunction, { tenantId }, { fields: ['name'] });
  return [...serviceFunctionNames, ...rows.map((r) => r.name)];
}

/**
 * The catalogue entries the document's serviceTasks name, as pinned into the deployed definition,
 * and the names no longer there. Called inside the deploy's transaction: the share lock keeps a
 * concurrent delete of these entries waiting until the definition is committed.
 */
export async function bindingsFor(
  tx: EntityManager,
  tenantId: string,
  doc: ProcessDocument,
): Promise<{ functions: Record<string, FunctionBinding>; missing: string[] }> {
  const names = new Set<string>();
  for (const node of doc.metadata.nodes) {
    const fn = (node.configuration as { functionName?: unknown } | undefined)?.functionName;
    if (node.type === 'serviceTask' && typeof fn === 'string' && !isBuiltin(fn)) names.add(fn);
  }
  if (!names.size) return { functions: {}, missing: [] };
  const rows = await tx.find(
    ServiceFunction,
    { tenantId, name: { $in: [...names] } },
    { lockMode: LockMode.PESSIMISTIC_READ, refresh: true },
  );
  const out: Record<string, FunctionBinding> = {};
  for (const r of rows) {
    out[r.name] = {
      id: r.id,
      kind: r.kind,
      ...(r.kind === 'activity' ? { taskQueue: r.taskQueue!, activityType: r.activityType! } : { url: r.url! }),
      timeoutMs: r.timeoutMs,
      retry: r.retry,
    };
  }
  return { functions: out, missing: [...names].filter((n) => !out[n]) };
}
