// The condition checks alone (POST /process-definitions/validate-conditions).
import { compileCondition } from './expressions.js';
import { fieldCelType } from './forms.js';
import { finding, type Finding } from './problems.js';
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

// ---- suggestions: the form field a mistyped or bare name most likely meant ----

/** The process form's fields by name, with the label people see (the name when it has none). */
export function formFieldLabels(doc: ProcessDocument): Array<{ name: string; label: string }> {
  const form = doc.ruleChain?.additionalInfo?.form ?? (doc as { form?: { fields?: unknown } }).form;
  const fields: unknown = form?.fields;
  if (!Array.isArray(fields)) return [];
  return fields.flatMap((f: { name?: unknown; label?: unknown } | null) =>
    typeof f?.name === 'string'
      ? [{ name: f.name, label: typeof f.label === 'string' && f.label.trim() ? f.label : f.name }]
      : [],
  );
}

function distance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++)
      row[j] = Math.min(prev[j] + 1, row[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    prev = row;
  }
  return prev[b.length];
}

/**
 * The field `name` most likely means: the same name (a bare `days` for `msg.days`), the same but for
 * case, a label equal to it, or the nearest name within a third of its length in edits. None when
 * nothing is near.
 */
export function nearestField(
  name: string,
  fields: ReadonlyArray<{ name: string; label: string }>,
): { name: string; label: string } | undefined {
  const lower = name.toLowerCase();
  const exact =
    fields.find((f) => f.name === name) ??
    fields.find((f) => f.name.toLowerCase() === lower || f.label.toLowerCase() === lower);
  if (exact) return exact;
  const limit = Math.max(1, Math.floor(name.length / 3));
  let best: { field: { name: string; label: string }; d: number } | undefined;
  for (const field of fields) {
    const d = distance(lower, field.name.toLowerCase());
    if (d <= limit && (!best || d < best.d)) best = { field, d };
  }
  return best?.field;
}

/** A suggestion as a problem's parameters: the field's name and label. */
export function suggestionParams(
  variable: string,
  fields: ReadonlyArray<{ name: string; label: string }>,
): { suggestion?: string; suggestionLabel?: string } {
  const near = nearestField(variable, fields);
  if (!near) return {};
  return near.label === near.name ? { suggestion: near.name } : { suggestion: near.name, suggestionLabel: near.label };
}

/**
 * `condition.invalid` for a case that does not compile. A bare name the compiler does not know
 * (`days` for `msg.days`) is named in `variable`, with the form field it most likely means.
 */
export function invalidConditionFinding(
  expression: string,
  error: string,
  fields: ReadonlyArray<{ name: string; label: string }>,
): Finding<'condition.invalid'> {
  const unknown = /^Unknown variable: ([A-Za-z_][A-Za-z0-9_]*)/.exec(error);
  if (!unknown) return finding('condition.invalid', { expression, error });
  const variable = unknown[1];
  return finding('condition.invalid', { expression, error, variable, ...suggestionParams(variable, fields) });
}
