// The names a chain refers to outside itself, for the server to look up in the tenant at save
// (a missing sub-chain, function, process or skill refuses the save, naming node and field).
import { hasPlaceholders } from './template.js';
import type { RuleChainDsl } from './types.js';

export type ReferenceKind = 'chain' | 'function' | 'process' | 'skill';

export interface ChainReference {
  kind: ReferenceKind;
  name: string;
  nodeId: string;
  field: string;
}

const FIELDS: Record<string, [ReferenceKind, string]> = {
  flow: ['chain', 'targetId'],
  functions: ['function', 'functionName'],
  startProcess: ['process', 'processKey'],
};

/**
 * Every reference, in node order. A startProcess processKey with `${...}` placeholders is known
 * only at run time and is not listed; `configuration.skills` (an agent's skill names) on any node is.
 */
export function chainReferences(chain: RuleChainDsl): ChainReference[] {
  const out: ChainReference[] = [];
  for (const node of chain.metadata.nodes) {
    const cfg = node.configuration ?? {};
    const ref = FIELDS[node.type];
    if (ref) {
      const name = cfg[ref[1]];
      if (typeof name === 'string' && name.trim() && !hasPlaceholders(name))
        out.push({ kind: ref[0], name: name.trim(), nodeId: node.id, field: `configuration.${ref[1]}` });
    }
    if (Array.isArray(cfg.skills))
      cfg.skills.forEach((s, i) => {
        if (typeof s === 'string' && s.trim())
          out.push({ kind: 'skill', name: s.trim(), nodeId: node.id, field: `configuration.skills[${i}]` });
      });
  }
  return out;
}

/** The distinct names by kind. */
export function chainReferenceNames(chain: RuleChainDsl): {
  chains: string[];
  functions: string[];
  processes: string[];
  skills: string[];
} {
  const refs = chainReferences(chain);
  const names = (kind: ReferenceKind) => [...new Set(refs.filter((r) => r.kind === kind).map((r) => r.name))];
  return { chains: names('chain'), functions: names('function'), processes: names('process'), skills: names('skill') };
}
