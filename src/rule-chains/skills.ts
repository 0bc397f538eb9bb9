// Skills (docs/rule-chains.md "Skills"): a tenant's named instruction texts that an aiAgent node
// attaches to its prompt (`configuration.skills: [name]`). One store, served in our envelope at
// /api/v1/skills and in RuleGo's shapes under the rule-engine prefix. A skill a saved chain's
// aiAgent names (a process's draft or active version, or a chain) cannot be deleted (409 IN_USE naming
// them); a save naming a missing skill is refused.
import type { EntityManager } from '@mikro-orm/postgresql';
import { AppError } from '../errors.js';
import { Skill, type ISkill } from '../db/entities/index.js';
import { bound } from '../db/bound.js';
import { flushUnique, requireRow } from '../db/row-lookup.js';

export interface SkillInput {
  description?: string | null;
  content: string;
}

export function skillView(row: ISkill) {
  return {
    name: row.name,
    description: row.description ?? '',
    content: row.content,
    scope: 'global' as const,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}
export type SkillView = ReturnType<typeof skillView>;

/** By name; `offset`/`limit` page it. */
export async function listSkills(em: EntityManager, tenantId: string, page: number, size: number) {
  const [rows, total] = await em.findAndCount(
    Skill,
    { tenantId },
    { orderBy: { name: 'asc' }, limit: size, offset: (page - 1) * size },
  );
  return { items: rows.map(skillView), total };
}

const findSkill = (em: EntityManager, tenantId: string, name: string) =>
  requireRow(em, Skill, { tenantId, name }, `skill ${name}`);

export const getSkill = async (em: EntityManager, tenantId: string, name: string) =>
  skillView(await findSkill(em, tenantId, name));

export async function createSkill(
  em: EntityManager,
  tenantId: string,
  userId: string,
  name: string,
  input: SkillInput,
) {
  if (await em.count(Skill, { tenantId, name })) throw new AppError('ALREADY_EXISTS', `A skill ${name} already exists`);
  const row = em.create(Skill, {
    tenantId,
    name,
    description: input.description ?? null,
    content: input.content,
    createdBy: userId,
    updatedBy: userId,
  });
  await flushUnique(em, `A skill ${name} already exists`);
  return skillView(row);
}

export async function updateSkill(
  em: EntityManager,
  tenantId: string,
  userId: string,
  name: string,
  input: SkillInput,
) {
  const row = await findSkill(em, tenantId, name);
  em.assign(row, { description: input.description ?? null, content: input.content, updatedBy: userId });
  await em.flush();
  return skillView(row);
}

const NAMES_SKILL = `exists (select 1 from jsonb_array_elements(coalesce(d.dsl->'metadata'->'nodes', '[]'::jsonb)) n
                    where jsonb_typeof(n->'configuration'->'skills') = 'array'
                      and n->'configuration'->'skills' @> jsonb_build_array(?::text))`;

/** The chains (deployed documents) and processes (drafts and active versions) whose aiAgent nodes name the skill. */
export async function usersOfSkill(em: EntityManager, tenantId: string, name: string) {
  const chains = await bound<{ id: string }>(
    em,
    `select d.id from rule_chains d where d.tenant_id = ? and ${NAMES_SKILL} order by d.id`,
    [tenantId, name],
  );
  const processes = await bound<{ key: string }>(
    em,
    `select distinct d.key from process_definitions d
      where d.tenant_id = ? and d.status in ('draft', 'active') and ${NAMES_SKILL} order by d.key`,
    [tenantId, name],
  );
  return { chains: chains.map((r) => r.id), processes: processes.map((r) => r.key) };
}

export async function deleteSkill(em: EntityManager, tenantId: string, name: string) {
  await findSkill(em, tenantId, name);
  const users = await usersOfSkill(em, tenantId, name);
  if (users.chains.length || users.processes.length)
    throw new AppError(
      'IN_USE',
      `The skill ${name} is named by ${[
        ...(users.processes.length ? [`process(es) ${users.processes.join(', ')}`] : []),
        ...(users.chains.length ? [`rule chain(s) ${users.chains.join(', ')}`] : []),
      ].join(' and ')}`,
      users,
    );
  await em.nativeDelete(Skill, { tenantId, name });
}
