// The condition checks alone (POST /process-definitions/validate-conditions).
import { compileCondition } from './expressions.js';
import { fieldCelType } from './forms.js';
import type { ProcessDocument } from './types.js';

export interface ConditionResult {
  nodeId: string;
  /** 1-based. */
  caseIndex: number;
  expression: string;
  valid: boolean;
  error: string | null;
}

export interface ExpressionResult {
  /** 0-based. */
  index: number;
  expression: string;
  valid: boolean;
  error: string | null;
}

/** Variable types declared by the process form (`form.fields: [{ name, type }]`). */
export function formVariableTypes(doc: ProcessDocument): Record<string, string> {
  const types: Record<string, string> = {};
  const fields = doc.ruleChain.additionalInfo?.form?.fields;
  if (!Array.isArray(fields)) return types;
  for (const field of fields) {
    const type = field && typeof field === 'object' ? fieldCelType(field) : undefined;
    if (typeof field?.name === 'string' && type) types[field.name] = type;
  }
  return types;
}

function check(expression: unknown, varTypes: Record<string, string>): { valid: boolean; error: string | null } {
  if (typeof expression !== 'string') return { valid: false, error: 'expression must be a string' };
  const result = compileCondition(expression, varTypes);
  return result.ok ? { valid: true, error: null } : { valid: false, error: result.error };
}

/** One result per case of every switch/inclusive, checked against the form's variable types. */
export function validateConditions(doc: ProcessDocument): { valid: boolean; results: ConditionResult[] } {
  const varTypes = formVariableTypes(doc);
  const results: ConditionResult[] = [];
  for (const node of doc.metadata.nodes) {
    if (node.type !== 'switch' && node.type !== 'inclusive') continue;
    const cases: unknown = (node.configuration as { cases?: unknown } | undefined)?.cases;
    if (!Array.isArray(cases)) continue;
    cases.forEach((c: { case?: unknown } | null, i) => {
      const expression = c?.case;
      results.push({
        nodeId: node.id,
        caseIndex: i + 1,
        expression: String(expression ?? ''),
        ...check(expression, varTypes),
      });
    });
  }
  return { valid: results.every((r) => r.valid), results };
}

/** One result per expression (no form, so variables are untyped). */
export function validateExpressions(list: readonly string[]): { valid: boolean; results: ExpressionResult[] } {
  const results = list.map((expression, index) => ({ index, expression, ...check(expression, {}) }));
  return { valid: results.every((r) => r.valid), results };
}
