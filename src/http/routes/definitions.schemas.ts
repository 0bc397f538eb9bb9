import { z } from '@hono/zod-openapi';
import { DefinitionStatuses } from '../../db/entities/definitions.js';
import { IsoDate } from '../../shapes.js';
import { catalogueQuery, catalogueRow } from './versioned.schemas.js';

/** The DSL document itself: its content is checked by the DSL validator (422), not here. */
export const Dsl = z
  .record(z.string(), z.unknown())
  .openapi('ProcessDsl', { description: 'Process document in the rule-chain DSL (docs/dsl.md)' });

export const Definition = catalogueRow(DefinitionStatuses, { dsl: Dsl }, { deployedAt: IsoDate.nullable() }).openapi(
  'ProcessDefinition',
);

export const DefinitionQuery = catalogueQuery(DefinitionStatuses);

export const DslBody = z.object({ dsl: Dsl }).strict().openapi('DefinitionDslBody');

const exactlyOne = (a: string, b: string) => (v: Record<string, unknown>) =>
  (v[a] === undefined) !== (v[b] === undefined);

export const DeployBody = z
  .object({ dsl: Dsl.optional(), draftId: z.string().min(1).optional() })
  .strict()
  .refine(exactlyOne('dsl', 'draftId'), { message: 'Send either dsl or draftId' })
  .openapi('DefinitionDeployBody');

export const ImportForm = z
  .object({
    file: z.instanceof(File).openapi({ type: 'string', format: 'binary', description: 'The DSL as a .json file' }),
  })
  .strict()
  .openapi('DefinitionImportForm');

export const ValidateConditionsBody = z
  .object({ dsl: Dsl.optional(), expressions: z.array(z.string()).max(1000).optional() })
  .strict()
  .refine(exactlyOne('dsl', 'expressions'), { message: 'Send either dsl or expressions' })
  .openapi('ValidateConditionsBody');

export const ConditionResult = z.object({
  nodeId: z.string().optional(),
  caseIndex: z.number().int().optional().openapi({ description: '1-based' }),
  index: z.number().int().optional().openapi({ description: '0-based, for a list of expressions' }),
  expression: z.string(),
  valid: z.boolean(),
  error: z.string().nullable(),
});

export const ConditionsReport = z
  .object({ valid: z.boolean(), results: z.array(ConditionResult) })
  .openapi('ConditionsReport');

export const Category = z
  .object({
    category: z.string().nullable(),
    definitions: z.array(
      z.object({
        id: z.string(),
        key: z.string(),
        name: z.string(),
        version: z.number().int().nullable(),
        description: z.string().nullable(),
      }),
    ),
  })
  .openapi('DefinitionCategory');

export const IdParam = z.object({ id: z.string().openapi({ param: { name: 'id', in: 'path' } }) });
export const KeyParam = z.object({ processKey: z.string().openapi({ param: { name: 'processKey', in: 'path' } }) });
