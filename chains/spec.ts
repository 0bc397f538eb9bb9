// The shape of the component catalogue: what each node and endpoint declares (RuleGo's
// configuration keys with defaults, the relations it emits, en/zh-CN texts) and the small
// builders the catalogue files share. Pure data types.

export type Locale = 'en' | 'zh-CN';
export interface Text {
  en: string;
  zh: string;
}

/** `json`: any JSON value (a string is a `${...}` template). */
export type FieldType = 'string' | 'int' | 'bool' | 'map' | 'array' | 'object' | 'json';
/** What a string holds: checked at save accordingly. */
export type FieldKind = 'expr' | 'script' | 'template' | 'exprMap' | 'templateMap' | 'cases' | 'events';

export interface FieldSpec {
  name: string;
  type: FieldType;
  defaultValue?: unknown;
  required?: boolean;
  kind?: FieldKind;
  /** Allowed values (a select in the form). */
  options?: readonly string[];
  min?: number;
  /** Accepted and kept, not used by this service (docs/rule-chains.md lists them). */
  ignored?: boolean;
  label: Text;
  desc: Text;
  /** RuleGo's `component` tag: how the editor draws the field. */
  component?: Record<string, unknown>;
}

export type NodeCategory = 'filter' | 'transform' | 'action' | 'flow' | 'external' | 'bpm' | 'endpoint';

export interface ComponentSpec {
  type: string;
  category: NodeCategory;
  label: Text;
  desc: Text;
  fields: FieldSpec[];
  /**
   * The relations the node emits; `null`: names the node computes (a switch's cases, a script's
   * answer, the message type), which any connection may use.
   */
  relations: string[] | null;
  /** Where the chain-run workflow runs it. */
  runs?: 'workflow' | 'activity';
}

export const t = (en: string, zh: string): Text => ({ en, zh });
export const exprEditor = { type: 'codeEditor', language: 'expr' };
const jsEditor = { type: 'codeEditor', language: 'javascript' };

/** A node's `jsScript`: the body of RuleGo's function of that signature. */
export const script = (defaultValue: string, signature: string): FieldSpec => ({
  name: 'jsScript',
  type: 'string',
  kind: 'script',
  required: true,
  defaultValue,
  component: jsEditor,
  label: t('Script', '脚本'),
  desc: t(
    `The body of ${signature}; msg is the parsed JSON when dataType is JSON. Runs in a sandbox with memory and time limits.`,
    `${signature} 的函数体；dataType 为 JSON 时 msg 是解析后的对象。在有内存与时间限制的沙箱中运行。`,
  ),
});
export const HTTP_METHODS = ['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'HEAD', 'OPTIONS'] as const;
export const ROUTER_METHODS = ['GET', 'POST', 'PUT', 'DELETE', 'PATCH'] as const;

/** A key RuleGo has and this service accepts and keeps, but does not use. */
export const ignored = (name: string, type: FieldType, defaultValue: unknown, en: string, zh: string): FieldSpec => ({
  name,
  type,
  defaultValue,
  ignored: true,
  label: t(en, zh),
  desc: t('Accepted for compatibility with RuleGo; not used by this service.', '为兼容 RuleGo 而接受；本服务不使用。'),
});
