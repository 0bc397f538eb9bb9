// Edits of one node's or the process's settings. A userTask written with older GFlow keys is
// rewritten to the canonical configuration when (and only when) its configuration is edited:
// the panels show canonical values, and an untouched node keeps its keys as they were.
import { normaliseUserTask } from '@dsl/legacy.js';
import type { Doc, Node } from './doc.js';
import { isObj, setIn, updateNode } from './doc.js';

const LEGACY_CONFIG_KEYS = [
  'candidateType',
  'candidateConfig',
  'approvalType',
  'approvalRule',
  'selfApprovalType',
  'timeoutPolicy',
  'rejectStrategy',
  'rejectTargetNode',
];

export function hasLegacyKeys(node: Node): boolean {
  if (node.type !== 'userTask') return false;
  const config = isObj(node.configuration) ? node.configuration : {};
  const perms = node.additionalInfo?.actionPermissions;
  return (
    LEGACY_CONFIG_KEYS.some((k) => k in config) ||
    (isObj(perms) && ('rejectStrategy' in perms || 'rejectTargetNode' in perms))
  );
}

/** A userTask's configuration as the panels show it: older keys translated, defaults filled in. */
export function canonicalConfig(node: Node): Record<string, any> {
  const config = isObj(node.configuration) ? node.configuration : {};
  return normaliseUserTask(config, node.additionalInfo?.actionPermissions).config;
}

function canonicalise(node: Node): Node {
  if (!hasLegacyKeys(node)) return node;
  const raw = isObj(node.configuration) ? node.configuration : {};
  const normal = normaliseUserTask(raw, node.additionalInfo?.actionPermissions);
  let next: Node = { ...node, configuration: normal.config };
  if (node.additionalInfo?.actionPermissions)
    next = setIn(next, ['additionalInfo', 'actionPermissions'], normal.actionPermissions);
  return next;
}

/** Sets (undefined: removes) the value at `path` of node `id` (["configuration", "approveMode"], ["name"], …). */
export function setNodeField(doc: Doc, id: string, path: readonly (string | number)[], value: unknown): Doc {
  return updateNode(doc, id, (node) => {
    const base = path[0] === 'configuration' || path[1] === 'actionPermissions' ? canonicalise(node) : node;
    return setIn(base, path, value);
  });
}

/** Sets (undefined: removes) the value at `path` of `ruleChain` (["name"], ["additionalInfo", "category"], …). */
export function setProcessField(doc: Doc, path: readonly (string | number)[], value: unknown): Doc {
  return setIn(doc, ['ruleChain', ...path], value);
}
