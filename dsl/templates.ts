// ${msg.x} / ${metadata.k} templates in node settings. Plain path lookups over own
// properties only (no expressions), so a template can never reach a prototype.
import { finding, type Finding } from './problems.js';

export interface TemplateContext {
  msg: Record<string, unknown>;
  metadata: Record<string, unknown>;
}

const PLACEHOLDER = /\$\{([^{}]*)\}/g;
const WHOLE = /^\$\{([^{}]*)\}$/;
const PATH = /^(msg|metadata)((?:\.[A-Za-z0-9_-]+)*)$/;

/** Value at `msg.a.b` / `metadata.k`, or undefined when any step is missing. */
export function lookupPath(ctx: TemplateContext, path: string): unknown {
  const m = PATH.exec(path.trim());
  if (!m) return undefined;
  let value: unknown = m[1] === 'msg' ? ctx.msg : ctx.metadata;
  for (const key of m[2].split('.').slice(1)) {
    if (typeof value !== 'object' || value === null || !Object.hasOwn(value, key)) return undefined;
    if (Array.isArray(value) && !/^\d+$/.test(key)) return undefined; // indexes only, not length
    value = (value as Record<string, unknown>)[key];
  }
  return value;
}

function stringify(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  try {
    return JSON.stringify(value) ?? '';
  } catch {
    return '';
  }
}

/** Fills every placeholder; a missing value becomes the empty string. */
export function renderTemplate(template: string, ctx: TemplateContext): string {
  return template.replace(PLACEHOLDER, (_, path: string) => stringify(lookupPath(ctx, path)));
}

/**
 * When the whole template is one placeholder, its raw value (an array of user ids, a number...;
 * undefined when missing); otherwise the rendered string.
 */
export function resolveTemplateValue(template: string, ctx: TemplateContext): unknown {
  const m = WHOLE.exec(template.trim());
  return m ? lookupPath(ctx, m[1]) : renderTemplate(template, ctx);
}

export function isTemplate(value: string): boolean {
  return value.includes('${');
}

/** Problems in a template's placeholders (deploy-time check), as codes. */
export function templateFindings(template: string): Finding[] {
  const problems: Finding[] = [];
  for (const m of template.matchAll(PLACEHOLDER)) {
    if (!PATH.test(m[1].trim())) problems.push(finding('template.badPlaceholder', { placeholder: m[1] }));
  }
  const rest = template.replace(PLACEHOLDER, '');
  if (rest.includes('${')) problems.push(finding('template.unclosed'));
  return problems;
}

/** The same, in words. */
export const templateProblems = (template: string): string[] => templateFindings(template).map((f) => f.message);
