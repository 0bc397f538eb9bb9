// The per-tenant agents catalogue (docs/ai-review.md): the OpenAI-compatible chat-completions
// endpoint each `agentId` of an aiAgent node names. The API key is write-only: stored here, read by
// the agent activity at call time, never answered, logged or put into workflow history. So are
// credentials in `baseUrl` (docs/http.md "Credentials in URLs"): a `user:password@` is refused by
// the body schema, secret query parameters are stored and answered as `***`.
import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { AiAgent, type IAiAgent } from '../db/entities/index.js';
import { AppError } from '../errors.js';
import type { Page, PageOpts } from '../paging.js';
import { redactUrl, storedUrl } from '../shapes.js';
import { flushUnique, requireRow } from '../db/row-lookup.js';

export interface AgentInput {
  name?: string | null;
  baseUrl: string;
  model: string;
  systemPrompt?: string | null;
  temperature?: number | null;
  timeoutMs: number;
  /** Absent on an update: the stored key stays. `null` removes it. */
  apiKey?: string | null;
}

export function agentView(row: IAiAgent, hasApiKey: boolean) {
  return {
    id: row.id,
    agentId: row.agentId,
    name: row.name ?? null,
    // Readers with definition access see it: its credentials as `***`.
    baseUrl: redactUrl(row.baseUrl),
    model: row.model,
    systemPrompt: row.systemPrompt ?? null,
    temperature: row.temperature ?? null,
    timeoutMs: row.timeoutMs,
    // Never the key itself.
    hasApiKey,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}
export type AgentView = ReturnType<typeof agentView>;

/** The tenant's entries that have a key, without loading any key into the process. */
async function keyed(em: EntityManager, tenantId: string): Promise<Set<string>> {
  const rows = await em.execute<Array<{ id: string }>>(
    'select id from ai_agents where tenant_id = ? and api_key is not null',
    [tenantId],
  );
  return new Set(rows.map((r) => r.id));
}

const findRow = (em: EntityManager, tenantId: string, agentId: string) =>
  requireRow(em, AiAgent, { tenantId, agentId }, `AI agent ${agentId}`);

export async function listAgents(em: EntityManager, tenantId: string, opts: PageOpts): Promise<Page<AgentView>> {
  const [rows, total] = await em.findAndCount(
    AiAgent,
    { tenantId },
    { orderBy: { agentId: 'asc' }, limit: opts.pageSize, offset: (opts.page - 1) * opts.pageSize },
  );
  const withKey = await keyed(em, tenantId);
  return { items: rows.map((r) => agentView(r, withKey.has(r.id))), total, page: opts.page, pageSize: opts.pageSize };
}

export async function getAgent(em: EntityManager, tenantId: string, agentId: string): Promise<AgentView> {
  const row = await findRow(em, tenantId, agentId);
  return agentView(row, (await keyed(em, tenantId)).has(row.id));
}

/** The columns an input sets; `keptUrl` is the stored baseUrl, kept when the answered one is sent back. */
const columnsOf = (input: AgentInput, keptUrl: string | null) => ({
  name: input.name ?? null,
  baseUrl: storedUrl('baseUrl', input.baseUrl, keptUrl),
  model: input.model,
  systemPrompt: input.systemPrompt ?? null,
  temperature: input.temperature ?? null,
  timeoutMs: input.timeoutMs,
});

export async function createAgent(
  em: EntityManager,
  tenantId: string,
  userId: string,
  input: AgentInput & { agentId: string },
): Promise<AgentView> {
  if (await em.count(AiAgent, { tenantId, agentId: input.agentId }))
    throw new AppError('ALREADY_EXISTS', `An AI agent ${input.agentId} already exists`);
  const row = em.create(AiAgent, {
    id: randomUUID(),
    tenantId,
    agentId: input.agentId,
    ...columnsOf(input, null),
    apiKey: input.apiKey ?? null,
    createdBy: userId,
    updatedBy: userId,
  } as any) as IAiAgent;
  await flushUnique(em, `An AI agent ${input.agentId} already exists`);
  return agentView(row, Boolean(input.apiKey));
}

export async function updateAgent(
  em: EntityManager,
  tenantId: string,
  userId: string,
  agentId: string,
  input: AgentInput,
): Promise<AgentView> {
  const row = await findRow(em, tenantId, agentId);
  em.assign(row, {
    ...columnsOf(input, row.baseUrl),
    ...(input.apiKey !== undefined ? { apiKey: input.apiKey } : {}),
    updatedBy: userId,
  } as any);
  await em.flush();
  return agentView(row, (await keyed(em, tenantId)).has(row.id));
}

/** Active definitions with an aiAgent node that names `agentId`. */
async function activeUsers(em: EntityManager, tenantId: string, agentId: string) {
  return em.execute<Array<{ id: string; key: string; version: number }>>(
    `select id, key, version from process_definitions
      where tenant_id = ? and status = 'active' and dsl -> 'metadata' -> 'nodes' @> ?::jsonb order by key`,
    [tenantId, JSON.stringify([{ type: 'aiAgent', configuration: { agentId } }])],
  );
}

export async function deleteAgent(em: EntityManager, tenantId: string, agentId: string): Promise<void> {
  await em.transactional(async (tx) => {
    const row = await findRow(tx, tenantId, agentId);
    const users = await activeUsers(tx, tenantId, agentId);
    if (users.length) {
      const named = users.map((d) => `${d.key} v${d.version}`).join(', ');
      throw new AppError('IN_USE', `AI agent ${agentId} is used by active definitions: ${named}`, {
        definitions: users.map((d) => ({ id: d.id, key: d.key, version: Number(d.version) })),
      });
    }
    tx.remove(row);
  });
}

/** Every agentId an aiAgent node of this tenant may name (deploy refuses others, naming the node). */
export async function agentIds(em: EntityManager, tenantId: string): Promise<string[]> {
  const rows = await em.find(AiAgent, { tenantId }, { fields: ['agentId'] });
  return rows.map((r) => r.agentId);
}

/** Every skill name an aiAgent node of this tenant may attach (deploy refuses others, naming the node and field). */
export async function skillNames(em: EntityManager, tenantId: string): Promise<string[]> {
  const rows = await em.execute<Array<{ name: string }>>('select name from skills where tenant_id = ?', [tenantId]);
  return rows.map((r) => r.name);
}

/**
 * The skills' contents in the order named, for an agent's system prompt; a name the tenant does
 * not have (deleted since the deploy) is refused, naming it.
 */
export async function skillContents(em: EntityManager, tenantId: string, names: readonly string[]): Promise<string[]> {
  if (!names.length) return [];
  const rows = await em.execute<Array<{ name: string; content: string }>>(
    'select name, content from skills where tenant_id = ? and name = any(array(select jsonb_array_elements_text(?::jsonb)))',
    [tenantId, JSON.stringify(names)],
  );
  const byName = new Map(rows.map((r) => [r.name, r.content]));
  const missing = names.filter((n) => !byName.has(n));
  if (missing.length)
    throw new AppError('REFERENCE_NOT_FOUND', `skill${missing.length > 1 ? 's' : ''} ${missing.join(', ')} not found`);
  return names.map((n) => byName.get(n)!);
}
