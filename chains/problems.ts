// A chain's validation problem. Codes are stable (clients render from code and params); the
// message is English made here. The server returns them in CHAIN_INVALID's `data.problems`.

export interface ChainProblem {
  /** The node or endpoint concerned (null: the document or the chain head). */
  nodeId: string | null;
  /** Where in the node or document: `configuration.expr`, `routers[0].from.path`, `metadata.connections[3]`. */
  field: string;
  code: ChainProblemCode;
  message: string;
  params?: Record<string, unknown>;
}

export const CHAIN_PROBLEM_CODES = [
  'document.invalid', // the document's shape (a zod issue: params.issue)
  'chain.idInvalid', // the chain id cannot stand in a URL path segment or a `chainId:nodeId` reference
  'chain.firstNodeIndex', // metadata.firstNodeIndex names no node
  'chain.ruleChainConnections', // RuleGo's older node → chain links, not run here (a flow node is)
  'node.typeUnknown',
  'node.idDuplicate',
  'endpoint.typeUnknown',
  'endpoint.idDuplicate',
  'connection.fromMissing', // fromId names no node
  'connection.toMissing', // toId names no node
  'connection.relationNever', // a relation the node never emits (a typo would never fire)
  'config.required', // a required configuration key is missing or empty
  'config.type', // a configuration value of the wrong type
  'config.value', // a value outside what the key accepts (a method, a negative number…)
  'expr.invalid', // an expression jsep/our checker refuses (params.error)
  'template.invalid', // a ${...} placeholder whose expression does not parse
  'script.invalid', // the script does not compile (the server's QuickJS check)
  'url.invalid',
  'cron.invalid',
  'timezone.invalid',
  'router.pathInvalid',
  'router.methodInvalid',
  'router.duplicate',
  'router.nodeMissing', // to.path names a start node that does not exist
] as const;
export type ChainProblemCode = (typeof CHAIN_PROBLEM_CODES)[number];

export const problem = (
  nodeId: string | null,
  field: string,
  code: ChainProblemCode,
  message: string,
  params?: Record<string, unknown>,
): ChainProblem => (params ? { nodeId, field, code, message, params } : { nodeId, field, code, message });
