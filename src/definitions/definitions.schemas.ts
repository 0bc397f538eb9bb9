import { z } from '@hono/zod-openapi';
import { DefinitionStatuses } from '../db/entities/definitions.js';
import { PROBLEM_CODES, nodeTypes } from '../../dsl/index.js';
import { IsoDate } from '../shapes.js';
import { AssignmentReason, UndecidedBy } from '../read-model/shapes.js';
import { VariablesInput } from '../http/input.js';
import { catalogueQuery, catalogueRow } from './versioned.schemas.js';

/** The DSL document itself: its content is checked by the DSL validator (422), not here. */
export const Dsl = z.record(z.string(), z.unknown()).openapi('ProcessDsl', {
  description:
    'Process document in the rule-chain DSL (docs/dsl.md): `ruleChain` ({id: the process key, name, …}) and `metadata` ({nodes, connections}). ' +
    'Its rules (node types and their configuration, connections, one start, reachable ends, conditions that compile, identifiers of at most 200 characters, …) are checked by the DSL validator, not by JSON Schema: ' +
    'a document that breaks one answers 422 DSL_INVALID with every problem (`data.problems`: nodeId, field, code, params, message). ' +
    'Strings inside must not contain U+0000 or lone surrogates; at most 32 levels of nesting (the body included).',
});

export const Definition = catalogueRow(DefinitionStatuses, { dsl: Dsl }, { deployedAt: IsoDate.nullable() }).openapi(
  'ProcessDefinition',
);

export const DefinitionQuery = catalogueQuery(DefinitionStatuses);

export const DslBody = z.object({ dsl: Dsl }).strict().openapi('DefinitionDslBody');

const exactlyOne = (a: string, b: string) => (v: Record<string, unknown>) =>
  (v[a] === undefined) !== (v[b] === undefined);

export const DeployBody = z
  .object({
    dsl: Dsl.optional(),
    draftId: z.string().min(1).optional(),
    skipIfUnchanged: z
      .boolean()
      .optional()
      .openapi({
        description:
          "Camunda's duplicate filtering: when the document (the draft's, for draftId) equals the active version's — " +
          'compared after compiling and pinning functions, object keys in any order — answer that version with 200 and write nothing ' +
          '(a draft stays a draft). Otherwise, and by default (false), every deploy is the next version (201).',
      }),
  })
  .strict()
  .refine(exactlyOne('dsl', 'draftId'), { message: 'Send either dsl or draftId' })
  .openapi('DefinitionDeployBody', { oneOf: [{ required: ['dsl'] }, { required: ['draftId'] }] });

/**
 * The multipart import: `file` is the DSL as JSON, an uploaded file or a plain part. The document
 * describes the part's content (a ProcessDsl sent as application/json), so generators send JSON.
 */
export const ImportForm = z
  .object({
    file: z
      .custom<File | string>((v) => v instanceof File || typeof v === 'string', 'a file or a JSON text')
      .openapi({
        type: 'object',
        description: 'The DSL document as JSON: an uploaded .json file, or a part with Content-Type application/json',
        allOf: [{ $ref: '#/components/schemas/ProcessDsl' }],
      }),
  })
  .strict()
  .openapi('DefinitionImportForm');

/** How the multipart part travels (OpenAPI `encoding`): JSON. */
export const ImportFormEncoding = { file: { contentType: 'application/json' } };

export const ValidateConditionsBody = z
  .object({ dsl: Dsl.optional(), expressions: z.array(z.string()).max(1000).optional() })
  .strict()
  .refine(exactlyOne('dsl', 'expressions'), { message: 'Send either dsl or expressions' })
  .openapi('ValidateConditionsBody', { oneOf: [{ required: ['dsl'] }, { required: ['expressions'] }] });

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

// ---------- validate ----------

export const ValidationProblem = z
  .object({
    nodeId: z.string().nullable().openapi({ description: 'null for a problem of the whole document' }),
    field: z.string().nullable().openapi({ description: 'dotted path, e.g. configuration.cases[0].case' }),
    code: z.enum(PROBLEM_CODES).openapi({ description: 'stable: the designer renders a problem from code and params' }),
    params: z.record(z.string(), z.unknown()),
    message: z.string().openapi({ description: 'the problem in the language of Accept-Language (en, zh-CN)' }),
    severity: z.enum(['error', 'warning']).openapi({
      description: 'error: deploy refuses the document; warning: deploy accepts it (e.g. condition.unknownVariable)',
    }),
  })
  .openapi('ValidationProblem');

export const ValidationReport = z
  .object({
    valid: z.boolean().openapi({ description: 'true when no problem is an error (warnings only, or none)' }),
    problems: z.array(ValidationProblem),
  })
  .openapi('ValidationReport');

// ---------- simulate ----------

export const SimulateBody = z
  .object({
    dsl: Dsl.optional(),
    definitionId: z.string().min(1).optional(),
    initiatorId: z.string().min(1).optional().openapi({ description: 'who starts it; the caller by default' }),
    variables: VariablesInput.optional(),
  })
  .strict()
  .refine(exactlyOne('dsl', 'definitionId'), { message: 'Send either dsl or definitionId' })
  .openapi('DefinitionSimulateBody', { oneOf: [{ required: ['dsl'] }, { required: ['definitionId'] }] });

// The task's reason, inlined: a second use of the named schema would change how the generator
// renders the Task's nullable one (and with it the console's types).
const Reason = z.object(AssignmentReason.shape);

const SimulatedApprover = z.object({
  userId: z.string(),
  displayName: z.string(),
  reason: Reason,
  autoApproved: z.boolean().openapi({ description: 'the ballot decides itself (selfApproval autoApprove)' }),
});

const SimulatedAssignment = z.object({
  mode: z.enum(['ballots', 'claim', 'pool', 'fallback']).openapi({
    description:
      'ballots: a task each; claim: one task the approvers claim; pool: members of roles/departments claim; fallback: the rule found nobody, emptyApproverPolicy applies',
  }),
  approvers: z.array(SimulatedApprover),
  candidates: z.object({ userIds: z.array(z.string()), roleIds: z.array(z.string()), deptIds: z.array(z.string()) }),
  // The rule's reason for the whole node (pools, claims, fallbacks); null for ballots: each carries its own.
  reason: Reason.nullable(),
  fallback: z.object({ policy: z.string(), problem: z.string() }).nullable(),
});

const CaseOutcome = z.object({
  caseIndex: z.number().int().openapi({ description: '1-based' }),
  expression: z.string(),
  then: z.string(),
  value: z
    .boolean()
    .nullable()
    .openapi({ description: 'null: not evaluated (data missing, an error, or an earlier case decided)' }),
  error: z.string().nullable(),
  needs: z.array(UndecidedBy),
});

const SimulatedStep = z.object({
  node: z.object({ id: z.string(), type: z.enum(nodeTypes), name: z.string().nullable() }),
  undecided: z.boolean(),
  undecidedBy: z.array(UndecidedBy),
  assignment: SimulatedAssignment.nullable().openapi({ description: 'userTasks: who would get the tasks, and why' }),
  decision: z
    .object({
      taken: z.array(z.string()).openapi({ description: 'relations taken for sure' }),
      possible: z.array(z.string()).openapi({ description: 'relations that may be taken' }),
      open: z.boolean(),
      cases: z.array(CaseOutcome),
    })
    .nullable()
    .openapi({ description: 'switch/inclusive: which case is taken and why' }),
});

export const Simulation = z
  .object({
    definitionId: z.string().nullable(),
    processKey: z.string(),
    processVersion: z.number().int().nullable(),
    initiatorId: z.string(),
    steps: z.array(SimulatedStep),
    names: z
      .object({
        users: z.record(z.string(), z.string()),
        roles: z.record(z.string(), z.string()),
        departments: z.record(z.string(), z.string()),
      })
      .openapi({
        description:
          'by id, the names of the people, roles and departments the steps name (approvers and candidates); an id the directory no longer has is left out',
      }),
  })
  .openapi('DefinitionSimulation');

// ---------- compare ----------

export const CompareParams = z.object({
  id: z.string().openapi({ param: { name: 'id', in: 'path' } }),
  otherId: z.string().openapi({ param: { name: 'otherId', in: 'path' } }),
});

const FieldChange = z.object({
  path: z.string(),
  before: z.unknown().optional().openapi({ description: 'left out when the field was absent' }),
  after: z.unknown().optional().openapi({ description: 'left out when the field is absent' }),
});
const NodeSummary = z.object({ id: z.string(), type: z.string(), name: z.string().nullable() });
const Connection = z.object({ fromId: z.string(), toId: z.string(), type: z.string() });
const VersionRef = z.object({
  id: z.string(),
  key: z.string(),
  name: z.string(),
  version: z.number().int().nullable(),
  status: z.enum(DefinitionStatuses),
});

export const Comparison = z
  .object({
    from: VersionRef,
    to: VersionRef,
    added: z.array(NodeSummary),
    removed: z.array(NodeSummary),
    changed: z.array(NodeSummary.extend({ changes: z.array(FieldChange) })),
    connections: z.object({ added: z.array(Connection), removed: z.array(Connection) }),
    process: z.array(FieldChange),
  })
  .openapi('DefinitionComparison');
