// Variables a condition may use: the process form's fields, plus whatever an earlier service
// function, HTTP call or AI pre-review may merge into the variables. A case naming anything else is most
// likely a typo (msg.dayz), which deploy cannot see: the designer reports it before publishing.
import { conditionVariables } from '@dsl/expressions.js';
import { upstream } from '@dsl/graph.js';
import type { ProcessDocument } from '@dsl/types.js';
import type { Doc, Node } from './doc.js';
import type { DesignProblem } from './problems.js';

export function formVariables(doc: Doc): string[] {
  const form: any = doc.ruleChain?.additionalInfo?.form ?? (doc as any).form;
  return Array.isArray(form?.fields)
    ? form.fields.map((f: any) => f?.name).filter((n: unknown): n is string => typeof n === 'string')
    : [];
}

/** Whether a step before `node` may add variables nobody declared (its outputs are open). */
function openOutputsBefore(doc: ProcessDocument, node: Node): boolean {
  const byId = new Map(doc.metadata.nodes.map((n) => [n.id, n]));
  for (const id of upstream(doc, node.id)) {
    const type = byId.get(id)?.type;
    if (type === 'serviceTask' || type === 'httpCall' || type === 'aiAgent') return true;
  }
  return false;
}

/** The fields of `expression` that are not declared (null when it does not compile). */
export function unknownIn(expression: string, known: readonly string[]): string[] | null {
  const used = conditionVariables(expression);
  if (!used) return null;
  if (used.wholeMsg) return [];
  return used.fields.filter((f) => !known.includes(f));
}

export function unknownVariableProblems(doc: ProcessDocument): DesignProblem[] {
  const known = formVariables(doc as Doc);
  const problems: DesignProblem[] = [];
  if (known.length === 0) return problems; // no form: variables come from whoever starts it
  for (const node of doc.metadata.nodes) {
    if (node.type !== 'switch' && node.type !== 'inclusive') continue;
    const cases: unknown = (node.configuration as any)?.cases;
    if (!Array.isArray(cases) || openOutputsBefore(doc, node)) continue;
    cases.forEach((c: any, i) => {
      if (typeof c?.case !== 'string' || c.case.trim() === '') return;
      for (const variable of unknownIn(c.case, known) ?? [])
        problems.push({
          nodeId: node.id,
          field: `configuration.cases[${i}].case`,
          code: 'condition.unknownVariable',
          params: { variable },
          message: `msg.${variable} is not a field of the process form, and no earlier step sets it`,
        });
    });
  }
  return problems;
}
