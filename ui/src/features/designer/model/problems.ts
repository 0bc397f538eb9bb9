// Instant feedback: the DSL package's own parse, validation and warnings, run in the browser. The
// server (POST …/validate) has the last word: it also knows the tenant's catalogue and stored forms.
import './zod-jitless.js'; // before any schema parses: no eval probe under the console's CSP
import { parseProcess } from '@dsl/parse.js';
import type { Problem } from '@dsl/types.js';
import { validateProcess, type ValidateOptions } from '@dsl/validate.js';
import { processWarnings } from '@dsl/variables.js';
import type { Doc } from './doc.js';

/**
 * A problem as the designer lists it: the DSL's, or the server's answer (whose `field` may be null).
 * `severity` "warning": deploy accepts it (condition.unknownVariable); it does not block Publish.
 */
export type DesignProblem = Omit<Problem, 'code' | 'params' | 'field'> & {
  field: string | null;
  code?: string;
  params?: Record<string, unknown>;
  severity?: 'error' | 'warning';
};

export const isWarning = (p: Pick<DesignProblem, 'severity'>) => p.severity === 'warning';

/** `catalogue`: the tenant's function names and agent ids, once loaded (serviceTasks and aiAgents are checked against them). */
export function problemsOf(doc: Doc, catalogue: ValidateOptions = {}): DesignProblem[] {
  const parsed = parseProcess(doc);
  if (!parsed.doc) return parsed.problems;
  return [
    ...parsed.problems,
    ...validateProcess(parsed.doc, catalogue),
    ...processWarnings(parsed.doc).map((p) => ({ ...p, severity: 'warning' as const })),
  ];
}

/** Problems by node id ('' for the process itself). */
export function byNode(problems: readonly DesignProblem[]): Map<string, DesignProblem[]> {
  const map = new Map<string, DesignProblem[]>();
  for (const p of problems) {
    const key = p.nodeId ?? '';
    map.set(key, [...(map.get(key) ?? []), p]);
  }
  return map;
}
