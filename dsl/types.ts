// The process document (GFlow rule-chain format) after parsing and normalisation.
import type { Finding, ProblemCode } from './problems.js';

/** Node types of approval (BPM) processes. */
export const approvalNodeTypes = [
  'startTask',
  'userTask',
  'ccTask',
  'switch',
  'inclusive',
  'fork',
  'join',
  'end',
] as const;

/** System node types of a process: calls, timers, sub-processes, AI and rule chains (`automation`). */
export const ruleChainNodeTypes = ['serviceTask', 'httpCall', 'delay', 'subProcess', 'aiAgent', 'automation'] as const;

/** Every node type: the two scopes of the component catalogue (GET /components) together. */
export const nodeTypes = [...approvalNodeTypes, ...ruleChainNodeTypes] as const;

export type NodeType = (typeof nodeTypes)[number];

export function isNodeType(value: unknown): value is NodeType {
  return typeof value === 'string' && (nodeTypes as readonly string[]).includes(value);
}

/**
 * One deploy/validation finding; nodeId is null for document-level problems. `code` and `params`
 * are what a client renders (problems.ts); `message` is the English made from them.
 */
export interface Problem {
  nodeId: string | null;
  field: string;
  code: ProblemCode;
  params: Record<string, unknown>;
  message: string;
}

/** A finding placed at a node (or the document) and a field. */
export const problemAt = (nodeId: string | null, field: string, f: Finding): Problem => ({
  nodeId,
  field,
  code: f.code,
  params: f.params,
  message: f.message,
});

export interface FormField {
  name: string;
  type?: string;
  label?: string;
  required?: boolean;
  [key: string]: unknown;
}

export interface ProcessInfo {
  category?: string;
  description?: string;
  formType?: 'design' | 'system' | 'external' | (string & {});
  form?: { fields?: FormField[]; [key: string]: unknown } | null;
  formKey?: string;
  /** The stored form version a deployed definition is pinned to (set at deploy for `system`). */
  formVersion?: number;
  formUrl?: string;
  actionPermissions?: Record<string, boolean>;
  /** Approve a person automatically who approved before: at the previous node, or anywhere earlier. */
  autoApproveRepeated?: 'none' | 'adjacent' | 'all';
  [key: string]: unknown;
}

export type FieldPermission = 'r' | 'w' | 'h';

export interface NodeInfo {
  description?: string;
  layoutX?: number;
  layoutY?: number;
  formPermissions?: Record<string, FieldPermission>;
  actionPermissions?: Record<string, boolean>;
  [key: string]: unknown;
}

export interface DslNode {
  id: string;
  /** Parsing keeps unsupported type strings so validation can name them; compiled documents hold only NodeType. */
  type: NodeType;
  name?: string;
  configuration?: NodeConfig;
  additionalInfo?: NodeInfo;
}

export interface DslConnection {
  fromId: string;
  toId: string;
  /** Relation: Success, Failure, Reject, Default or a switch/inclusive branch name. */
  type: string;
}

export interface ProcessDocument {
  ruleChain: { id: string; name: string; root?: boolean; additionalInfo?: ProcessInfo };
  metadata: { firstNodeIndex: number; nodes: DslNode[]; connections: DslConnection[] };
  /**
   * How each catalogue function the document's serviceTasks name runs, pinned at deploy
   * (docs/service-functions.md): later catalogue edits do not change running instances. Written by
   * the service, never by the designer (parse drops it; deploy computes it again).
   */
  functions?: Record<string, FunctionBinding>;
}

/** A catalogue entry as pinned into a deployed definition. No secret: the webhook activity reads it by `id`. */
export interface FunctionBinding {
  id: string;
  kind: 'activity' | 'webhook';
  taskQueue?: string;
  activityType?: string;
  url?: string;
  timeoutMs: number;
  retry: {
    maximumAttempts: number;
    initialIntervalMs: number;
    backoffCoefficient: number;
    maximumIntervalMs: number | null;
  };
}

// ---- node configurations (canonical form) ----

export type ApproverType =
  'user' | 'role' | 'dept' | 'manager' | 'multiLevelManager' | 'initiatorSelect' | 'initiatorSelf';

export interface Approver {
  type: ApproverType;
  userIds?: string[];
  roleIds?: string[];
  deptIds?: string[];
  /** manager: levels up (default 1); multiLevelManager: 1..levels, negative = to the top. */
  levels?: number;
  /** initiatorSelect: template such as ${msg.approvers}. */
  expression?: string;
}

export type ApproveMode = 'single' | 'any' | 'all' | 'sequential' | 'vote';
export type VoteRuleType = 'majority' | 'percent' | 'count';
export type SelfApproval = 'none' | 'skip' | 'autoApprove' | 'delegateToManager' | 'delegateToDeptManager';
export type EmptyApproverPolicy = 'tenant_admin' | 'auto_approve' | 'park';
export type TimeoutAction = 'remind' | 'autoApprove' | 'autoReject';
export type RejectStrategy = 'terminate' | 'toStarter' | 'toPrev' | 'toNode';
export type TaskKind = 'approval' | 'handle';

export interface UserTaskConfig {
  approver: Approver;
  approveMode: ApproveMode;
  voteRule?: { type: VoteRuleType; value?: number };
  /** Legacy isSequential: approvers act one at a time while the threshold still decides. */
  sequential?: boolean;
  selfApproval: SelfApproval;
  emptyApproverPolicy: EmptyApproverPolicy;
  timeout?: { dueInMinutes: number; action: TimeoutAction };
  /** Legacy static due date for every task of the node. */
  dueDate?: string;
  reject: { strategy: RejectStrategy; target?: string | null };
  taskName?: string;
  taskDescription?: string;
  formKey?: string;
  kind: TaskKind;
}

export interface CcTaskConfig {
  ccUserIds?: string[];
  selfSelect?: boolean;
}

export interface SwitchCase {
  case: string;
  then: string;
}

export interface SwitchConfig {
  cases: SwitchCase[];
}

export interface JoinConfig {
  /** Seconds; 0 or absent = wait forever. */
  timeout?: number;
}

export interface DelayConfig {
  /** Milliseconds, or a template such as ${msg.waitMs}. */
  delayMs: number | string;
}

export interface ServiceTaskConfig {
  functionName: string;
  /** Template; empty = all variables. */
  param?: string;
}

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'HEAD';

export interface HttpCallConfig {
  url: string;
  method?: HttpMethod;
  headers?: Record<string, string>;
  body?: unknown;
  timeoutMs?: number;
  flattenOutput?: boolean;
  outputMappings?: { from: string; to: string }[];
  reservedKey?: string;
  allowedHosts?: string[];
}

export interface SubProcessConfig {
  targetId: string;
}

/** GFlow's aiAgent node (docs/ai-review.md). */
export interface AiAgentConfig {
  agentId: string;
  async?: boolean;
  timeoutSec?: number;
  inputAssembly?: {
    customPrompt?: string;
    contextSources?: {
      formData?: boolean;
      processInfo?: boolean;
      prevComments?: boolean;
      initiator?: boolean;
      attachments?: boolean;
    };
  };
  /** Present: the verdict routes; absent: reference only (the answer is merged, the node passes). */
  decision?: { rejectStrategy?: 'terminate' | 'toStarter'; unresolved?: 'human' | 'pass' | 'reject' } | null;
  /** Users who get a task when the call fails or the verdict is unclear. */
  failureHandler?: string[];
  outputMappings?: { from: string; to: string }[];
  flattenOutput?: boolean;
  reservedKey?: string;
  /** Skills (the tenant's named instruction texts) attached to the agent's system prompt, in this order. */
  skills?: string[];
}

/**
 * GFlow's automation node: the process calls a rule chain (docs/rule-chains.md). `wait` (default
 * true): the chain's output merges into the variables as httpCall's answer does (flattenOutput,
 * outputMappings, reservedKey); false: the run starts and the path goes on at once.
 */
export interface AutomationConfig {
  targetId: string;
  wait?: boolean;
  /** A waited-for run's time limit: past it the run is cancelled and the node fails. Absent: none (a chain may hold durable delays). */
  timeoutMs?: number;
  flattenOutput?: boolean;
  outputMappings?: { from: string; to: string }[];
  reservedKey?: string;
}

export type EmptyConfig = Record<string, never>;

export interface NodeConfigByType {
  startTask: EmptyConfig;
  userTask: UserTaskConfig;
  ccTask: CcTaskConfig;
  switch: SwitchConfig;
  inclusive: SwitchConfig;
  fork: EmptyConfig;
  join: JoinConfig;
  delay: DelayConfig;
  serviceTask: ServiceTaskConfig;
  httpCall: HttpCallConfig;
  subProcess: SubProcessConfig;
  aiAgent: AiAgentConfig;
  automation: AutomationConfig;
  end: EmptyConfig;
}

export type NodeConfig = NodeConfigByType[NodeType] | Record<string, unknown>;

/** Typed view of a node's configuration; callers use it after compileProcess succeeded. */
export function configOf<T extends NodeType>(node: DslNode, _type: T): NodeConfigByType[T] {
  return (node.configuration ?? {}) as NodeConfigByType[T];
}
