// The process DSL: types, parsing, validation, graph helpers and expressions. Pure code
// (no Node, ORM or HTTP imports) so the Temporal workflow sandbox can use it.
export * from './types.js';
export { finding, messageOf, PROBLEM_CODES, type Finding, type ProblemCode, type SchemaIssue } from './problems.js';
export * from './schemas.js';
export { componentCatalogue, type ComponentDescriptor } from './catalogue.js';
export { parseProcess, type ParseResult } from './parse.js';
export {
  FORM_FIELD_TYPES,
  FORM_TYPE_ALIASES,
  formSchema,
  formFieldSchema,
  formSchemaProblems,
  formValueProblems,
  canonicalType,
  type FormSpec,
  type FormFieldSpec,
  type FormProblem,
  type FieldValueProblem,
} from './forms.js';
export { formVariables, processWarnings, unknownIn, unknownVariableProblems } from './variables.js';
export { validateProcess, compileProcess, type CompileProcessResult, type ValidateOptions } from './validate.js';
export {
  validateConditions,
  validateExpressions,
  formVariableTypes,
  type ConditionResult,
  type ExpressionResult,
} from './conditions.js';
export {
  nodeById,
  firstNode,
  outgoing,
  incoming,
  successors,
  upstream,
  downstream,
  pathCrossesParallel,
  previousApprovalNode,
  isParallelNode,
} from './graph.js';
export { matchingJoin, enclosingRegion, splitOfJoin } from './regions.js';
export {
  approvalNodesAhead,
  pathAhead,
  type AheadNode,
  type CaseOutcome,
  type GatewayOutcome,
  type KnownData,
  type PathAhead,
  type UndecidedBy,
} from './ahead.js';
export {
  compareDefinitions,
  fieldChanges,
  type DefinitionDiff,
  type FieldChange,
  type NodeChange,
  type NodeSummary,
} from './compare.js';
export {
  planMigration,
  mappingProblems,
  type MigrationPlan,
  type MigrationState,
  type NodeMapping,
  type NodeMove,
  type TaskMove,
} from './migration-plan.js';
export {
  ExpressionError,
  compileCondition,
  evaluateCondition,
  conditionVariables,
  MAX_EXPRESSION_LENGTH,
  type CompileResult,
  type ConditionContext,
} from './expressions.js';
export { translateExpression, TranslateError } from './translate.js';
export { renderTemplate, resolveTemplateValue, templateProblems, type TemplateContext } from './templates.js';
