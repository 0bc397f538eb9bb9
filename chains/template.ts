// RuleGo's `${...}` placeholders (utils/el): each placeholder is an expression evaluated against the
// message's environment (metadata keys at the top level too, as GetEvnAndMetadata gives them), so
// `${metadata.x}`, `${msg.x}` and `${x}` (a metadata key) all work. nil renders as the empty string.
import { ExprError, evalExpr, parseExpr } from './expr.js';
import type { CompiledExpr, ExprEnv } from './expr.js';

const PLACEHOLDER = /\$\{([^}]*)\}/g;

/** The placeholders' expressions, or the first that does not parse. */
export function templateExprs(template: string): { ok: true; exprs: CompiledExpr[] } | { ok: false; error: string } {
  const exprs: CompiledExpr[] = [];
  for (const m of template.matchAll(PLACEHOLDER)) {
    const parsed = parseExpr(m[1]);
    if (!parsed.ok) return { ok: false, error: `\${${m[1]}}: ${parsed.error}` };
    exprs.push(parsed.expr);
  }
  return { ok: true, exprs };
}

export const hasPlaceholders = (template: string) => /\$\{[^}]*\}/.test(template);

function text(v: unknown): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  return JSON.stringify(v);
}

/** The template with each `${expr}` replaced by its value as text. Throws ExprError as evalExpr does. */
export function renderPlaceholders(template: string, env: ExprEnv): string {
  return template.replace(PLACEHOLDER, (_, src: string) => {
    const parsed = parseExpr(src);
    if (!parsed.ok) throw new ExprError(`\${${src}}: ${parsed.error}`);
    return text(evalExpr(parsed.expr, env));
  });
}

/**
 * A configuration value rendered: a string that is exactly one placeholder gives the expression's
 * value itself (RuleGo's ExprTemplate: `"${msg.items}"` stays an array); other strings render as
 * text; arrays and objects are rendered member by member; anything else is returned as it is.
 */
export function renderValue(value: unknown, env: ExprEnv): unknown {
  if (typeof value === 'string') {
    const whole = /^\s*\$\{([^}]*)\}\s*$/.exec(value);
    if (whole) {
      const parsed = parseExpr(whole[1]);
      if (!parsed.ok) throw new ExprError(`\${${whole[1]}}: ${parsed.error}`);
      return evalExpr(parsed.expr, env) ?? null;
    }
    return renderPlaceholders(value, env);
  }
  if (Array.isArray(value)) return value.map((v) => renderValue(v, env));
  if (typeof value === 'object' && value !== null)
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, renderValue(v, env)]));
  return value;
}
