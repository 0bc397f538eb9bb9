// The rule-chain DSL (RuleGo's `types.RuleChain`, field for field), its message and what a chain
// run takes and gives. Pure: the server, the chain-run workflow and the console import it.

/** A JSON object a node or chain is configured with; unknown keys are kept on a round trip. */
export type Configuration = Record<string, unknown>;

export interface NodeAdditionalInfo {
  description?: string;
  layoutX?: number;
  layoutY?: number;
  [key: string]: unknown;
}

export interface RuleNode {
  id: string;
  type: string;
  name?: string;
  debugMode?: boolean;
  configuration?: Configuration;
  additionalInfo?: NodeAdditionalInfo;
  [key: string]: unknown;
}

export interface NodeConnection {
  fromId: string;
  toId: string;
  /** The relation: Success, Failure, True, False, Default or a custom name (a switch's case). */
  type: string;
  label?: string;
  [key: string]: unknown;
}

/** An endpoint router: `from.path` is the trigger's route (an HTTP path, a cron), `to.path` the chain (and node). */
export interface RouterDsl {
  id?: string;
  params?: unknown[];
  from: { path: string; configuration?: Configuration; processors?: string[]; [key: string]: unknown };
  to?: { path?: string; wait?: boolean; configuration?: Configuration; processors?: string[]; [key: string]: unknown };
  [key: string]: unknown;
}

/** A trigger of the chain: `endpoint/http` (or `http`), `endpoint/schedule`, `endpoint/processEvent` (ours). */
export interface EndpointDsl extends RuleNode {
  processors?: string[];
  routers?: RouterDsl[];
}

export interface RuleChainHead {
  id: string;
  name: string;
  root?: boolean;
  disabled?: boolean;
  debugMode?: boolean;
  configuration?: Configuration;
  additionalInfo?: Record<string, unknown>;
  [key: string]: unknown;
}

export interface RuleMetadata {
  firstNodeIndex?: number;
  endpoints?: EndpointDsl[];
  nodes: RuleNode[];
  connections?: NodeConnection[];
  ruleChainConnections?: unknown[];
  [key: string]: unknown;
}

/** One chain document, as RuleGo's editor and server read and write it. */
export interface RuleChainDsl {
  ruleChain: RuleChainHead;
  metadata: RuleMetadata;
  [key: string]: unknown;
}

export type DataType = 'JSON' | 'TEXT' | 'BINARY';

/** RuleGo's message: `data` is always a string (JSON text when dataType is JSON); metadata values are strings. */
export interface RuleMsg {
  id: string;
  ts: number;
  type: string;
  dataType: DataType;
  data: string;
  metadata: Record<string, string>;
}

export const RELATIONS = {
  SUCCESS: 'Success',
  FAILURE: 'Failure',
  TRUE: 'True',
  FALSE: 'False',
  DEFAULT: 'Default',
} as const;

/** What started a run: shown in its log; `event`/`schedule`/`http` name the endpoint that fired. */
export type ChainTrigger =
  | { kind: 'execute' | 'notify' | 'console'; userId: string }
  | { kind: 'http'; endpointId: string; path: string; userId?: string }
  | { kind: 'schedule'; endpointId: string; cron: string }
  | { kind: 'event'; endpointId: string; event: ProcessEventName; instanceId: string }
  | { kind: 'automation'; instanceId: string; nodeId: string }
  | { kind: 'flow'; parentRunId: string; nodeId: string };

export type ProcessEventName = 'instanceStarted' | 'instanceEnded' | 'taskCreated' | 'taskDecided';
export const PROCESS_EVENTS: readonly ProcessEventName[] = [
  'instanceStarted',
  'instanceEnded',
  'taskCreated',
  'taskDecided',
];

/** The chain-run workflow's argument. The chain is a snapshot: a run keeps the version it started on. */
export interface ChainRunInput {
  runId: string;
  tenantId: string;
  chainId: string;
  chainVersion: number;
  chain: RuleChainDsl;
  msg: RuleMsg;
  trigger: ChainTrigger;
  /** RuleGo's `_fromNodeId` / `_onlyNodeId`. */
  fromNodeId?: string;
  onlyNodeId?: string;
  /** Sub-chain depth (`flow`): refused past MAX_FLOW_DEPTH so a chain calling itself ends. */
  depth?: number;
}

export const MAX_FLOW_DEPTH = 8;

/** Node visits of one run: a cycle with no way out fails the run instead of growing its history without end. */
export const MAX_NODE_VISITS = 500;

/**
 * The run log keeps at most this much of a message's data (the output message is whole), and all of a
 * run's logged data together at most LOG_BUDGET_CHARS, past which each message keeps LOG_TAIL_CHARS:
 * the log travels in the workflow's result and the run row, far below Temporal's 2 MB payload limit.
 */
export const LOGGED_DATA_CHARS = 8_192;
export const LOG_BUDGET_CHARS = 128_000;
export const LOG_TAIL_CHARS = 128;

/** One node visit in the run log (RuleGo's RuleNodeRunLog). */
export interface NodeRunLog {
  nodeId: string;
  inMsg: RuleMsg;
  outMsg: RuleMsg | null;
  relationType: string;
  err: string;
  startTs: number;
  endTs: number;
  /** Attempts of an activity node (Temporal's retries show here). */
  attempts?: number;
}

export interface ChainRunResult {
  success: boolean;
  /** The output: the message where the last branch ended (the input when nothing ran). */
  msg: RuleMsg;
  error: { nodeId: string | null; message: string } | null;
  logs: NodeRunLog[];
}

/** Workflow id of a run: one run id, one workflow, in every tenant's own space. */
export const chainRunWorkflowId = (tenantId: string, runId: string) => `chain-run:${tenantId}:${runId}`;
export const CHAIN_RUN_WORKFLOW = 'chainRun';
