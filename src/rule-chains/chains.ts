// A tenant's rule chains as versioned documents (docs/rule-chains.md): save = validate, number a
// new version and deploy it in one transaction; the head row holds the deployed document and the
// state (`disabled` = stopped). Starting, stopping, deploying and deleting keep the chain's
// Temporal Schedules in step (schedules.ts).
import { randomBytes } from 'node:crypto';
import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Client } from '@temporalio/client';
import type { RuleChainDsl } from '../../chains/types.js';
import { AppError } from '../errors.js';
import { RuleChain, RuleChainVersion, type IRuleChain } from '../db/entities/index.js';
import { requireRow } from '../db/row-lookup.js';
import { bound } from '../db/bound.js';
import { checkChain } from './chain-checks.js';
import { removeSchedules, syncSchedules, type ScheduleTarget } from './schedules.js';

export interface ChainDeps {
  em: EntityManager;
  temporal: Client;
  taskQueue: string;
}

const scheduleTarget = (deps: ChainDeps): ScheduleTarget => ({ temporal: deps.temporal, taskQueue: deps.taskQueue });

export const findChain = (em: EntityManager, tenantId: string, id: string, forUpdate = false) =>
  requireRow(em, RuleChain, { tenantId, id }, `rule chain ${id}`, { forUpdate });

/** The deployed document as RuleGo answers it: `ruleChain.disabled` says the state. */
export function chainDsl(row: IRuleChain): RuleChainDsl {
  return { ...row.dsl, ruleChain: { ...row.dsl.ruleChain, disabled: row.disabled } };
}

const pad = (n: number) => String(n).padStart(2, '0');
/** RuleGo's `additionalInfo.updateTime` (`2026/08/14 10:00:00`, UTC here). */
const updateTime = (d: Date) =>
  `${d.getUTCFullYear()}/${pad(d.getUTCMonth() + 1)}/${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;

/** One item of GET /rules: RuleGo's summary (no nodes; the first endpoint's type). */
export function chainSummary(row: IRuleChain) {
  const first = row.dsl.metadata?.endpoints?.[0];
  return {
    ruleChain: {
      id: row.id,
      name: row.name,
      root: row.root,
      disabled: row.disabled,
      additionalInfo: {
        category: row.category ?? '',
        updateTime: updateTime(row.updatedAt),
        description: row.description ?? '',
        message: row.message ?? '',
      },
    },
    metadata: { endpoints: first ? [{ type: first.type }] : [] },
    // Ours: the deployed version.
    version: row.version,
  };
}

export interface ChainFilter {
  keywords?: string;
  category?: string;
  root?: boolean;
  disabled?: boolean;
  page: number;
  size: number;
}

const likeEscape = (s: string) => s.replace(/[\\%_]/g, '\\$&');

/** GET /rules: newest change first; keywords match id, name or description (case-insensitively). */
export async function listChains(em: EntityManager, tenantId: string, f: ChainFilter) {
  const where: Record<string, unknown> = { tenantId };
  if (f.keywords?.trim()) {
    const like = `%${likeEscape(f.keywords.trim())}%`;
    where.$or = [{ id: { $ilike: like } }, { name: { $ilike: like } }, { description: { $ilike: like } }];
  }
  if (f.category) where.category = f.category;
  if (f.root !== undefined) where.root = f.root;
  if (f.disabled !== undefined) where.disabled = f.disabled;
  const [rows, total] = await em.findAndCount(RuleChain, where, {
    orderBy: { updatedAt: 'desc', id: 'asc' },
    limit: f.size,
    offset: (f.page - 1) * f.size,
  });
  return { total, page: f.page, size: f.size, items: rows.map(chainSummary) };
}

export async function getChain(em: EntityManager, tenantId: string, id: string) {
  return chainDsl(await findChain(em, tenantId, id));
}

/** The head's columns a document sets (RuleGo keeps category and description in additionalInfo). */
function headColumns(dsl: RuleChainDsl) {
  const info = (dsl.ruleChain.additionalInfo ?? {}) as Record<string, unknown>;
  const text = (v: unknown) => (typeof v === 'string' && v.trim() ? v : null);
  return {
    name: dsl.ruleChain.name,
    root: dsl.ruleChain.root ?? true,
    category: text(info.category),
    description: text(info.description),
  };
}

/** The body's `ruleChain.id` must be the path's, or is filled from it. */
function withPathId(id: string, body: unknown): unknown {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return body;
  const doc = body as Record<string, unknown>;
  const head = doc.ruleChain;
  if (!head || typeof head !== 'object' || Array.isArray(head)) return body;
  const given = (head as Record<string, unknown>).id;
  if (given !== undefined && given !== '' && given !== id)
    // A rule of the document (as the others chain-checks.ts applies): 422 naming the field.
    throw new AppError('CHAIN_INVALID', `ruleChain.id (${String(given)}) differs from the path's id (${id})`, {
      problems: [
        {
          nodeId: null,
          field: 'ruleChain.id',
          code: 'chain.idMismatch',
          message: `must be ${id}, as in the path`,
          params: { given: String(given), id },
        },
      ],
    });
  return { ...doc, ruleChain: { ...head, id } };
}

/**
 * POST /rules/{id}: validates (422 CHAIN_INVALID naming node and field; nothing stored), then one
 * transaction writes version n+1 and points the head at it. An existing chain keeps its state; a
 * new one starts unless `ruleChain.disabled` is true. A started chain's schedules follow the new version.
 */
export async function saveChain(deps: ChainDeps, tenantId: string, userId: string, id: string, body: unknown) {
  const dsl = await checkChain(deps.em, tenantId, withPathId(id, body));
  const row = await deps.em.transactional(async (em) => {
    const head = await em.findOne(RuleChain, { tenantId, id }, { refresh: true, lockMode: LockMode.PESSIMISTIC_WRITE });
    const version = (head?.version ?? 0) + 1;
    em.create(RuleChainVersion, { tenantId, chainId: id, version, dsl, createdBy: userId });
    if (head) {
      // Set, not em.assign: a JSON property would be merged into the old document.
      Object.assign(head, headColumns(dsl), { version, dsl, updatedBy: userId });
      return head;
    }
    return em.create(RuleChain, {
      tenantId,
      id,
      ...headColumns(dsl),
      disabled: dsl.ruleChain.disabled === true,
      version,
      dsl,
      hookSecret: newHookSecret(),
      message: null,
      createdBy: userId,
      updatedBy: userId,
    });
  });
  await settleSchedules(deps, row);
  return chainDsl(row);
}

/** Creates, updates or removes the chain's schedules for its state; a failure is kept as its `message`. */
async function settleSchedules(deps: ChainDeps, row: IRuleChain) {
  let message: string | null = null;
  try {
    if (row.disabled) await removeSchedules(scheduleTarget(deps), row.tenantId, row.id);
    else await syncSchedules(scheduleTarget(deps), row.tenantId, row.id, row.version, row.dsl);
  } catch (err) {
    message = `schedules: ${(err as Error).message}`;
    if (err instanceof AppError) throw err;
  } finally {
    if (row.message !== message) {
      await deps.em.nativeUpdate(RuleChain, { tenantId: row.tenantId, id: row.id }, { message });
      row.message = message;
    }
  }
}

/** DELETE /rules/{id}: the chain, its versions and its schedules; the runs' rows stay in the log. */
export async function deleteChain(deps: ChainDeps, tenantId: string, id: string) {
  await findChain(deps.em, tenantId, id);
  await removeSchedules(scheduleTarget(deps), tenantId, id);
  await deps.em.nativeDelete(RuleChainVersion, { tenantId, chainId: id });
  await deps.em.nativeDelete(RuleChain, { tenantId, id });
}

export type Operation = 'start' | 'stop' | 'set-to-main';

/** POST /rules/{id}/operate/{start|stop}: the state, and the schedules with it. */
export async function operateChain(deps: ChainDeps, tenantId: string, userId: string, id: string, op: Operation) {
  if (op === 'set-to-main')
    throw new AppError(
      'BAD_REQUEST',
      'set-to-main is not supported: every chain is its own main chain here (docs/rule-chains.md "Differences from RuleGo")',
    );
  const row = await findChain(deps.em, tenantId, id);
  row.disabled = op === 'stop';
  row.updatedBy = userId;
  await deps.em.flush();
  await settleSchedules(deps, row);
  return chainSummary(row);
}

/** GET /rules/{id}/versions (ours): every saved version, newest first. */
export async function chainVersions(em: EntityManager, tenantId: string, id: string, page: number, size: number) {
  const head = await findChain(em, tenantId, id);
  const [rows, total] = await em.findAndCount(
    RuleChainVersion,
    { tenantId, chainId: id },
    { orderBy: { version: 'desc' }, limit: size, offset: (page - 1) * size },
  );
  return {
    total,
    page,
    size,
    items: rows.map((v) => ({
      version: v.version,
      deployed: v.version === head.version,
      name: v.dsl.ruleChain?.name ?? '',
      createdBy: v.createdBy ?? null,
      createdAt: v.createdAt.toISOString(),
      dsl: v.dsl,
    })),
  };
}

const newHookSecret = () => randomBytes(32).toString('base64url');

/** The hook secret (GET /rules/{id}/hook-secret, definition:write): the key of the chain's HTTP triggers. */
export async function hookSecret(em: EntityManager, tenantId: string, id: string) {
  const [row] = await bound<{ hook_secret: string }>(
    em,
    'select hook_secret from rule_chains where tenant_id = ? and id = ?',
    [tenantId, id],
  );
  if (!row) throw new AppError('NOT_FOUND', `No rule chain ${id}`);
  return { chainId: id, secret: row.hook_secret };
}

/** A new hook secret: the old one stops working at once. */
export async function rotateHookSecret(em: EntityManager, tenantId: string, id: string) {
  await findChain(em, tenantId, id);
  const secret = newHookSecret();
  await em.nativeUpdate(RuleChain, { tenantId, id }, { hookSecret: secret });
  return { chainId: id, secret };
}
