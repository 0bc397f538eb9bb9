// Warnings: what deploy accepts but is most likely a mistake. A switch/inclusive case naming a
// variable that is neither a field of the process form nor possibly set by an earlier service
// function, HTTP call, AI pre-review or rule chain (a typo such as msg.dayz). Deploy still accepts it — an older
// GFlow process may read variables its starter sends — so it is reported, never refused. Pure code.
import { formFieldLabels, suggestionParams } from './conditions.js';
import { conditionVariables } from './expressions.js';
import { upstream } from './graph.js';
import { finding } from './problems.js';
import { problemAt, type DslNode, type Problem, type ProcessDocument } from './types.js';

/** The variable names the process form declares (a designer's top-level `form` wrapper too, for an unparsed document). */
export function formVariables(doc: ProcessDocument): string[] {
  const form = doc.ruleChain?.additionalInfo?.form ?? (doc as { form?: { fields?: unknown } }).form;
  const fields: unknown = form?.fields;
  return Array.isArray(fields)
    ? fields.map((f: { name?: unknown } | null) => f?.name).filter((n): n is string => typeof n === 'string')
    : [];
}

/** Steps whose outputs are open: they may add variables nobody declared. */
const OPEN_OUTPUTS = new Set(['serviceTask', 'httpCall', 'aiAgent', 'automation']);

function openOutputsBefore(doc: ProcessDocument, node: DslNode): boolean {
  const byId = new Map(doc.metadata.nodes.map((n) => [n.id, n]));
  for (const id of upstream(doc, node.id)) if (OPEN_OUTPUTS.has(byId.get(id)?.type ?? '')) return true;
  return false;
}

/** The variables `expression` names that are not in `known` (null when it does not compile). */
export function unknownIn(expression: string, known: readonly string[]): string[] | null {
  const used = conditionVariables(expression);
  if (!used) return null;
  if (used.wholeMsg) return [];
  return used.fields.filter((f) => !known.includes(f));
}

/** `condition.unknownVariable` for every case naming an undeclared variable; none without a form. */
export function unknownVariableProblems(doc: ProcessDocument): Problem[] {
  const known = formVariables(doc);
  if (known.length === 0) return []; // no form: variables come from whoever starts it
  const labelled = formFieldLabels(doc);
  const problems: Problem[] = [];
  for (const node of doc.metadata.nodes) {
    if (node.type !== 'switch' && node.type !== 'inclusive') continue;
    const cases: unknown = (node.configuration as { cases?: unknown } | undefined)?.cases;
    if (!Array.isArray(cases) || openOutputsBefore(doc, node)) continue;
    cases.forEach((c: { case?: unknown } | null, i) => {
      if (typeof c?.case !== 'string' || c.case.trim() === '') return;
      for (const variable of unknownIn(c.case, known) ?? [])
        problems.push(
          problemAt(
            node.id,
            `configuration.cases[${i}].case`,
            finding('condition.unknownVariable', { variable, ...suggestionParams(variable, labelled) }),
          ),
        );
    });
  }
  return problems;
}

/** Everything deploy accepts but reports as a warning (docs/dsl.md#warnings). */
export function processWarnings(doc: ProcessDocument): Problem[] {
  return unknownVariableProblems(doc);
}
