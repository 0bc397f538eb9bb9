// What the rule engine's API answers besides the chain DSL (chains/types.ts): list rows, component
// forms (RuleGo's ComponentForm), runs and their node logs.
import type { EndpointDsl, NodeRunLog, RuleChainHead, RuleMsg } from '@chains/types.js';

/** A row of GET /rules: the chain's head and its endpoints' types (not the whole DSL). */
export interface ChainSummary {
  ruleChain: RuleChainHead & { additionalInfo?: { updateTime?: string; description?: string; [k: string]: unknown } };
  metadata?: { endpoints?: Array<Partial<EndpointDsl>> };
  [key: string]: unknown;
}

/** A configuration field of a component (RuleGo's ComponentFormField). */
export interface ComponentField {
  name: string;
  type: string;
  defaultValue?: unknown;
  label?: string;
  desc?: string;
  validate?: string;
  required?: boolean;
  /** What a string holds: `expr`, `script`, `template` … (chains/catalogue.ts FieldKind). */
  kind?: string;
  /** Allowed values: a select. */
  options?: readonly string[];
  /** Accepted for RuleGo's sake and kept, not used by this service. */
  ignored?: boolean;
  /** A hint for the control: textarea, select, code … (RuleGo's `component.type`). */
  component?: { type?: string; options?: Array<{ label?: string; value: unknown }>; [k: string]: unknown };
  fields?: ComponentField[];
  [key: string]: unknown;
}

/** A node or endpoint type the palette offers (RuleGo's ComponentForm). */
export interface ComponentForm {
  type: string;
  category?: string;
  label?: string;
  desc?: string;
  fields?: ComponentField[];
  /** The relations it can take; null or absent: any name (a switch's cases). */
  relationTypes?: string[] | null;
  [key: string]: unknown;
}

export interface ComponentList {
  endpoints: ComponentForm[];
  nodes: ComponentForm[];
}

/** A row of GET /logs/runs. */
export interface RunSummary {
  id: string;
  chainId: string;
  chainName?: string;
  startTs: number;
  endTs?: number | null;
  success: boolean;
  errorMsg?: string;
  status?: string;
  [key: string]: unknown;
}

/** GET /logs/runs/{id}: the run and the log of every node it visited, in order. */
export interface RunDetail extends RunSummary {
  logs: Array<NodeRunLog & { inMsg: RuleMsg; outMsg: RuleMsg | null }> | null;
}
