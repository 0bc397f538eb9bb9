// Validation problems as codes and parameters (docs/dsl.md#problem-codes): the designer and every
// language render a problem from `code` and `params`; `message` is the English made from them here.
// Codes are stable: rename one only with the clients that render it. Pure code.

type Empty = Record<string, never>;

/** A schema (zod) issue as parameters: its code and what it expected, where it says. */
export interface SchemaIssue {
  issue: string;
  expected?: string;
  values?: unknown[];
  minimum?: number;
  maximum?: number;
}

/** Quoted alternatives in words: `"a", "b" or "c"`. */
const oneOf = (values: readonly string[]) => {
  const quoted = values.map((v) => `"${v}"`);
  return quoted.length > 1 ? `${quoted.slice(0, -1).join(', ')} or ${quoted[quoted.length - 1]}` : (quoted[0] ?? '');
};

/** The form field a condition's unknown name most likely means (conditions.ts). */
export interface Suggestion {
  suggestion?: string;
  suggestionLabel?: string;
}

const didYouMean = (p: Suggestion) =>
  p.suggestion
    ? ` — did you mean msg.${p.suggestion}${p.suggestionLabel && p.suggestionLabel !== p.suggestion ? ` (${p.suggestionLabel})` : ''}?`
    : '';

/**
 * Every code with its English message. Where the words come from a library, a parameter carries
 * them (CEL's `error`, RE2's), or, for a schema's issue, the message keeps them and the params name
 * the issue.
 */
const messages = {
  // the document's shape
  'document.notObject': (_: Empty) => 'the process definition must be a JSON object',
  'document.unknownKey': (p: { key: string }) => `unknown top-level key "${p.key}"`,
  'document.metadataRequired': (_: Empty) => 'required object with nodes and connections',
  'document.nodesRequired': (_: Empty) => 'required array of nodes',
  'document.ruleChainRequired': (_: Empty) => 'required object with id and name',
  'document.keyRequired': (_: Empty) => 'required non-empty string (the process key)',
  'document.draftKeyRequired': (_: Empty) => 'the process key is required',
  'node.notObject': (_: Empty) => 'a node must be an object',
  'connection.notObject': (_: Empty) => 'a connection must be an object',
  // values of any field
  'value.required': (_: Empty) => 'required',
  'value.requiredString': (_: Empty) => 'required non-empty string',
  'value.empty': (_: Empty) => 'must not be empty',
  'value.notString': (_: Empty) => 'must be a string',
  'value.notBoolean': (_: Empty) => 'must be true or false',
  'value.notInteger': (_: Empty) => 'must be an integer',
  'value.notNumber': (_: Empty) => 'must be a number',
  'value.notObject': (_: Empty) => 'must be an object',
  'value.notArray': (_: Empty) => 'must be an array',
  'value.notJson': (_: Empty) => 'is not valid JSON',
  'value.notJsonObject': (_: Empty) => 'must be a JSON object',
  'value.notDate': (_: Empty) => 'is not a valid date',
  'value.notOneOf': (p: { allowed: string[] }) => `must be ${oneOf(p.allowed)}`,
  'value.belowMinimum': (p: { min: number }) => `must be at least ${p.min}`,
  'value.tooLong': (p: { max: number }) => `must be at most ${p.max} characters`,
  'value.notPositive': (_: Empty) => 'must be greater than 0',
  'value.unknownField': (_: { key: string }) => 'unknown field',
  /** A value the schema refuses: `issue` is the schema's issue code (zod), with what it expected; words from the schema. */
  'value.invalid': (p: SchemaIssue) => `invalid (${p.issue})`,
  // limits (docs/definitions.md#rules)
  'limit.nodes': (p: { count: number; max: number }) => `has ${p.count} nodes; at most ${p.max} are allowed`,
  'limit.connections': (p: { count: number; max: number }) =>
    `has ${p.count} connections; at most ${p.max} are allowed`,
  // process settings
  'process.actionPermissionsNotObject': (_: Empty) => 'must be an object of action → true/false',
  'process.formPermissionsNotObject': (_: Empty) => 'must be an object of field → r/w/h',
  'process.formKeyRequired': (_: Empty) => 'required when formType is "system" (the key of a stored form)',
  'process.formVersionInvalid': (_: Empty) => 'must be a version number ≥ 1',
  'process.formUnknown': (p: { key: string; version?: number }) => `unknown form "${p.key}"`,
  // older GFlow keys (legacy.ts)
  'legacy.bothKeys': (p: { key: string; legacyKey: string }) =>
    `both "${p.key}" and the older "${p.legacyKey}" are given; keep one`,
  'legacy.approvalRuleWithoutType': (_: Empty) => 'approvalRule needs approvalType countersign or vote',
  // graph
  'graph.duplicateNodeId': (p: { id: string }) => `duplicate node id "${p.id}"`,
  'graph.unknownNode': (p: { id: string }) => `names unknown node "${p.id}"`,
  'graph.noNodes': (_: Empty) => 'the process has no nodes',
  'graph.firstNodeOutOfRange': (p: { index: number; max: number }) => `${p.index} is out of range (0..${p.max})`,
  'graph.unreachable': (_: Empty) => 'not reachable from the first node',
  'graph.noWayToEnd': (_: Empty) => 'no end node can be reached from here',
  'graph.noEnd': (_: Empty) => 'the process has no end node',
  'graph.loopNeverWaits': (p: { nodeIds: string[]; waitingTypes: string[] }) =>
    `lies on a loop that never waits (${p.nodeIds.join(', ')}): a loop must pass through a ${p.waitingTypes.join(' or ')} node`,
  'region.nested': (p: { type: string; splitId: string }) =>
    `nested parallel regions are not supported: this ${p.type} lies inside the region of "${p.splitId}"`,
  'region.noJoin': (p: { type: string }) => `the branches of this ${p.type} never meet at a join`,
  'region.severalJoins': (p: { type: string; joinIds: string[] }) =>
    `the branches of this ${p.type} meet at different joins (${p.joinIds.join(', ')})`,
  'region.branchMissesJoin': (p: { startId: string; joinId: string }) =>
    `the branch starting at "${p.startId}" never reaches join "${p.joinId}"`,
  'region.joinWithoutSplit': (_: Empty) => 'this join closes no fork or inclusive',
  // nodes
  'node.typeUnsupported': (p: { type: string; supported: string[] }) =>
    `node type "${p.type}" is not supported (supported: ${p.supported.join(', ')})`,
  'node.functionUnknown': (p: { name: string }) =>
    `function "${p.name}" is not registered: neither a built-in nor in the tenant's service-function catalogue`,
  'node.functionRemoved': (p: { name: string }) =>
    `function "${p.name}" is not registered: it was removed from the catalogue`,
  'node.agentUnknown': (p: { agentId: string }) => `AI agent "${p.agentId}" is not in the tenant's agents catalogue`,
  'node.skillUnknown': (p: { name: string }) => `skill "${p.name}" is not among the tenant's skills`,
  'node.subProcessSelf': (_: Empty) => 'a process cannot start itself as a sub-process',
  'node.httpUrlInvalid': (_: Empty) => 'must be an http(s) URL or a template',
  'template.expected': (p: { example: string; numberAllowed: boolean }) =>
    `must be ${p.numberAllowed ? 'a number ≥ 0 or ' : ''}a template such as ${p.example}`,
  'template.badPlaceholder': (p: { placeholder: string }) =>
    `"\${${p.placeholder}}" must name msg.<variable> or metadata.<key>`,
  'template.unclosed': (_: Empty) => 'has an unclosed "${"',
  // userTask
  'approver.idsRequired': (p: { type: string; list: string }) =>
    `approver type "${p.type}" needs at least one id in ${p.list}`,
  'approver.expressionRequired': (_: Empty) => 'initiatorSelect needs a template such as ${msg.approvers}',
  'approver.levelsZero': (_: Empty) => 'must not be 0 (a negative number means up to the top)',
  'vote.ruleWithoutVote': (_: Empty) => 'voteRule is only allowed with approveMode "vote"',
  'vote.percentRange': (_: Empty) => 'a percent vote needs a value from 0 to 100',
  'vote.countInvalid': (_: Empty) => 'a count vote needs a whole number ≥ 1',
  'selfApproval.skipLeavesNobody': (_: Empty) => '"skip" with approver "initiatorSelf" would leave no approver',
  'handle.approveMode': (_: Empty) => 'a handle task only supports approveMode "single" or "any"',
  'reject.targetRequired': (_: Empty) => 'reject strategy "toNode" needs a target node id',
  'reject.targetUnknown': (p: { target: string }) => `"${p.target}" is not a node of this process`,
  'reject.targetSelf': (_: Empty) => 'cannot be the node itself',
  'reject.targetType': (p: { target: string }) => `"${p.target}" must be a userTask or startTask`,
  'reject.targetNotUpstream': (p: { target: string }) => `"${p.target}" is not upstream of this node`,
  'reject.targetCrossesParallel': (p: { target: string }) =>
    `the path back to "${p.target}" crosses a fork, join or inclusive`,
  'reject.starterCrossesParallel': (_: Empty) =>
    'toStarter: the path back to the first node crosses a fork, join or inclusive',
  'reject.previousCrossesParallel': (p: { nodeId: string; type: string }) =>
    `toPrev: the path back to the previous approval crosses "${p.nodeId}" (${p.type})`,
  // switch / inclusive
  'switch.noCases': (_: Empty) => 'needs at least one case',
  'switch.noConnection': (p: { relation: string }) => `no outgoing connection of type "${p.relation}"`,
  /**
   * `error` is the expression compiler's words; `variable` a bare name it does not know, with the
   * form field it most likely means (`suggestion`, `suggestionLabel`).
   */
  'condition.invalid': (p: { expression: string; error: string } & Suggestion & { variable?: string }) =>
    p.variable ? `${p.error}${didYouMean(p)}` : p.error,
  /** A warning (variables.ts): deploy accepts it. */
  'condition.unknownVariable': (p: { variable: string } & Suggestion) =>
    `msg.${p.variable} is not a field of the process form, and no earlier step sets it${didYouMean(p)}`,
  // embedded forms (forms.ts)
  'form.invalid': (p: SchemaIssue) => `invalid (${p.issue})`,
  'form.duplicateSection': (p: { id: string }) => `duplicate section "${p.id}"`,
  'form.duplicateField': (p: { name: string }) => `duplicate field "${p.name}"`,
  'form.optionsRequired': (p: { type: string }) => `a ${p.type} field needs at least one option`,
  'form.optionsNotAllowed': (_: Empty) => 'only select and multi-select fields take options',
  'form.optionsNotDistinct': (_: Empty) => 'option values must be distinct',
  'form.patternNotAllowed': (_: Empty) => 'only text and textarea fields take a pattern',
  'form.patternInvalid': (p: { error: string }) => p.error,
  'form.multipleNotAllowed': (_: Empty) => 'only user, department and attachment fields take multiple',
  'form.attachmentOnly': (p: { key: string }) => `only attachment fields take ${p.key}`,
  'form.boundNotTime': (p: { type: string }) => `must be a ${p.type} like the values`,
  'form.boundNotCount': (_: Empty) => 'must be a whole number ≥ 0 (a length or a count)',
  'form.boundNotAllowed': (p: { type: string; bound: string }) => `a ${p.type} field takes no ${p.bound}`,
  'form.minAboveMax': (_: Empty) => 'must not be above max',
  'form.unknownSection': (p: { section: string }) => `no section "${p.section}" in sections`,
  'form.defaultInvalid': (p: { error: string }) => `does not fit the field: ${p.error}`,
} as const;

export type ProblemCode = keyof typeof messages;
export type ProblemParams<C extends ProblemCode> = Parameters<(typeof messages)[C]>[0];

/** A code with its parameters and the words made from them. */
export interface Finding<C extends ProblemCode = ProblemCode> {
  code: C;
  params: Record<string, unknown>;
  message: string;
}

export const PROBLEM_CODES = Object.keys(messages) as ProblemCode[];

type Args<C extends ProblemCode> = ProblemParams<C> extends Empty ? [] : [params: ProblemParams<C>];

export function finding<C extends ProblemCode>(code: C, ...args: Args<C>): Finding<C> {
  const params = (args[0] ?? {}) as ProblemParams<C>;
  const words = messages[code] as (p: ProblemParams<C>) => string;
  return { code, params: params as Record<string, unknown>, message: words(params) };
}

/** The English of a code with its parameters (a schema's issue keeps the schema's own words, which its params do not hold). */
export function messageOf(code: ProblemCode, params: Record<string, unknown>): string {
  return (messages[code] as (p: Record<string, unknown>) => string)(params);
}

/** A schema's issue: its own words are the message (they name what it expected). */
export function schemaFinding<C extends 'value.invalid' | 'form.invalid'>(
  code: C,
  { code: issueCode, message, ...rest }: { code: string; message: string },
): Finding<C> {
  const issue = rest as Record<string, unknown>;
  const params: SchemaIssue = { issue: issueCode };
  if (typeof issue.expected === 'string') params.expected = issue.expected;
  if (Array.isArray(issue.values))
    params.values = issue.values.filter((v) => typeof v !== 'symbol' && typeof v !== 'bigint');
  if (typeof issue.minimum === 'number') params.minimum = issue.minimum;
  if (typeof issue.maximum === 'number') params.maximum = issue.maximum;
  return { code, params: params as unknown as Record<string, unknown>, message };
}
