// What a save checks beyond the document itself (docs/rule-chains.md "Saving a chain"): the chain
// package parses and validates (scripts compiled in the sandbox, never run); here every name a
// node refers to — sub-chain, service function, process key, skill — is looked up in the tenant.
// Any problem refuses the save with 422 CHAIN_INVALID naming node and field; nothing is stored.
import type { EntityManager } from '@mikro-orm/postgresql';
import { chainReferences, parseChain, validateChain, type RuleChainDsl } from '../../chains/index.js';
import { AppError } from '../errors.js';
import { ProcessDefinition, RuleChain, ServiceFunction, Skill } from '../db/entities/index.js';
import { serviceFunctionNames } from '../definitions/builtin-functions.js';
import { checkScript } from './sandbox.js';

/** A problem of the document (chains/problems.ts) or a name the tenant does not have. */
export interface ChainProblemView {
  nodeId: string | null;
  field: string;
  code: string;
  message: string;
  params?: Record<string, unknown>;
}

const refuse = (problems: ChainProblemView[]): never => {
  const first = problems[0]!;
  const where = first.nodeId ? `node ${first.nodeId} (${first.field}): ` : '';
  const more = problems.length > 1 ? ` (and ${problems.length - 1} more)` : '';
  throw new AppError('CHAIN_INVALID', `The rule chain does not validate: ${where}${first.message}${more}`, {
    problems,
  });
};

/** Names the tenant has, of one kind, among `names`. */
async function existing(em: EntityManager, tenantId: string, kind: string, names: string[]): Promise<Set<string>> {
  if (!names.length) return new Set();
  switch (kind) {
    case 'chain':
      return new Set((await em.find(RuleChain, { tenantId, id: { $in: names } }, { fields: ['id'] })).map((r) => r.id));
    case 'function': {
      const rows = await em.find(ServiceFunction, { tenantId, name: { $in: names } }, { fields: ['name'] });
      return new Set([...serviceFunctionNames.filter((n) => names.includes(n)), ...rows.map((r) => r.name)]);
    }
    case 'process': {
      const rows = await em.find(
        ProcessDefinition,
        { tenantId, key: { $in: names }, status: 'active' },
        { fields: ['key'] },
      );
      return new Set(rows.map((r) => r.key));
    }
    case 'skill':
      return new Set(
        (await em.find(Skill, { tenantId, name: { $in: names } }, { fields: ['name'] })).map((r) => r.name),
      );
    default:
      return new Set(names);
  }
}

const WHAT: Record<string, string> = {
  chain: 'rule chain',
  function: 'service function',
  process: 'process with an active version',
  skill: 'skill',
};

/** The document of a save, parsed and checked; refused with 422 CHAIN_INVALID on any problem. */
export async function checkChain(em: EntityManager, tenantId: string, body: unknown): Promise<RuleChainDsl> {
  const parsed = parseChain(body);
  if (!parsed.ok) return refuse(parsed.problems);
  const chain = parsed.chain;
  const problems = validateChain(chain, { checkScript });
  if (problems.length) return refuse(problems);
  const refs = chainReferences(chain);
  const missing: ChainProblemView[] = [];
  for (const kind of Object.keys(WHAT)) {
    // A chain may call itself (a `flow` to its own id, bounded by MAX_FLOW_DEPTH).
    const ofKind = refs.filter((r) => r.kind === kind && !(kind === 'chain' && r.name === chain.ruleChain.id));
    const found = await existing(em, tenantId, kind, [...new Set(ofKind.map((r) => r.name))]);
    for (const r of ofKind)
      if (!found.has(r.name))
        missing.push({
          nodeId: r.nodeId,
          field: r.field,
          code: `${kind}.missing`,
          message: `no ${WHAT[kind]} ${r.name} in this tenant`,
          params: { name: r.name },
        });
  }
  if (missing.length) refuse(missing);
  return chain;
}
