// RuleGo's message helpers: `data` is always a string (JSON text when dataType is JSON), and the
// environment an expression sees (RuleGo's NodeUtils.GetEvn: id, ts, data, msg, metadata, msgType,
// type, dataType).
import type { DataType, RuleMsg } from './types.js';
import type { ExprEnv } from './expr.js';

/** The message body: parsed JSON when dataType is JSON (the raw string when it does not parse), else the string. */
export function msgData(msg: RuleMsg): unknown {
  if (msg.dataType !== 'JSON') return msg.data;
  try {
    return JSON.parse(msg.data) as unknown;
  } catch {
    return msg.data;
  }
}

const toText = (value: unknown) => (typeof value === 'string' ? value : (JSON.stringify(value) ?? 'null'));

/**
 * A copy of `msg` carrying `value`: a string is kept as it is (the message keeps its dataType unless
 * one is given), anything else is written as JSON and the dataType becomes JSON.
 */
export function withData(msg: RuleMsg, value: unknown, dataType?: DataType): RuleMsg {
  const type: DataType = dataType ?? (typeof value === 'string' ? msg.dataType : 'JSON');
  return { ...msg, metadata: { ...msg.metadata }, data: toText(value), dataType: type };
}

export interface NewMsgInput {
  /** The caller supplies id and ts (a workflow takes them from its deterministic uuid and clock). */
  id: string;
  ts: number;
  type: string;
  data?: unknown;
  dataType?: DataType;
  metadata?: Record<string, unknown>;
}

/** A message; metadata values become strings (RuleGo's metadata is map[string]string). */
export function newMsg(input: NewMsgInput): RuleMsg {
  const metadata: Record<string, string> = {};
  for (const [k, v] of Object.entries(input.metadata ?? {})) if (v !== undefined && v !== null) metadata[k] = toText(v);
  return {
    id: input.id,
    ts: input.ts,
    type: input.type,
    dataType: input.dataType ?? 'JSON',
    data: input.data === undefined ? '' : toText(input.data),
    metadata,
  };
}

/**
 * What an expression sees. `withMetadata` (RuleGo's GetEvnAndMetadata, used by templates such as
 * restApiCall's URL) also puts each metadata key at the top level, never over a built-in name.
 */
export function exprEnv(msg: RuleMsg, opts: { withMetadata?: boolean } = {}): ExprEnv {
  const env: ExprEnv = {
    id: msg.id,
    ts: msg.ts,
    data: msg.data,
    msg: msgData(msg),
    metadata: { ...msg.metadata },
    msgType: msg.type,
    type: msg.type,
    dataType: msg.dataType,
  };
  if (opts.withMetadata) for (const [k, v] of Object.entries(msg.metadata)) if (!Object.hasOwn(env, k)) env[k] = v;
  return env;
}
