// The one check of values against a form (embedded or stored), for start, submit-draft and
// every variable write (docs/forms.md#values).
import type { EntityManager } from '@mikro-orm/postgresql';
import { formValueProblems } from '../../dsl/index.js';
import { AppError } from '../errors.js';
import { definitionOf, findInstanceRow } from '../read-model/read-model.js';

/**
 * Variables checked against the form (docs/forms.md#values): types, options, bounds, and required
 * fields unless a draft. `only` limits a partial write to the names it writes. 400 naming each field.
 */
export function checkVariables(
  form: unknown,
  variables: Record<string, unknown>,
  opts: { requireAll: boolean; only?: readonly string[] },
) {
  const problems = formValueProblems(form, variables, opts);
  if (problems.length)
    throw new AppError(
      'VALIDATION_FAILED',
      `Variables do not match the form: ${problems.map((p) => `${p.path}: ${p.message}`).join('; ')}`,
      // Paths as the edge check writes them: the body field (docs/http.md#input-at-the-edge).
      { fields: problems.map((p) => ({ path: `variables.${p.path}`, message: p.message })) },
    );
}

/** A partial write of an instance's variables (instance or task set-variables, decisions with variables). */
export async function checkInstanceWrite(
  em: EntityManager,
  tenantId: string,
  instance: { definition_id: string } | string,
  set: Record<string, unknown> | undefined,
) {
  if (!set || !Object.keys(set).length) return;
  const row = typeof instance === 'string' ? await findInstanceRow(em, tenantId, instance) : instance;
  checkVariables((await definitionOf(em, row))?.form, set, { requireAll: false, only: Object.keys(set) });
}
