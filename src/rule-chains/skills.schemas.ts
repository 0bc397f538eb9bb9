import { z } from '@hono/zod-openapi';
import { IsoDate } from '../shapes.js';

/** a-z, A-Z, 0-9, - and _; at most 64 characters. */
export const SkillName = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[A-Za-z0-9_-]+$/, { message: 'letters, digits, - and _, at most 64 characters' });

export const NameParam = z.object({ name: SkillName.openapi({ param: { name: 'name', in: 'path' } }) });

const fields = {
  description: z.string().max(2000).nullable().optional(),
  content: z.string().min(1).max(100_000).openapi({ description: 'The instruction text (Markdown)' }),
};

export const SkillCreate = z
  .object({ name: SkillName, ...fields })
  .strict()
  .openapi('SkillCreate');
export const SkillUpdate = z.object(fields).strict().openapi('SkillUpdate');

/** RuleGo's create/update body: `scope` is `global` (the only one), `name` is the path's on update. */
export const RuleGoSkillBody = z
  .object({
    name: SkillName.optional(),
    ...fields,
    scope: z.enum(['global', '']).optional().openapi({ description: 'Only `global`' }),
  })
  .strict()
  .openapi('RuleGoSkillBody');

/** RuleGo's create body: the name is the new skill's. */
export const RuleGoSkillCreate = RuleGoSkillBody.extend({ name: SkillName }).strict().openapi('RuleGoSkillCreate');

export const Skill = z
  .object({
    name: z.string(),
    description: z.string(),
    content: z.string(),
    scope: z.literal('global'),
    createdAt: IsoDate,
    updatedAt: IsoDate,
  })
  .openapi('Skill');

export const ScopeQuery = z.object({
  scope: z
    .enum(['global', ''])
    .optional()
    .openapi({ param: { name: 'scope', in: 'query' }, description: 'Only `global`' }),
});
