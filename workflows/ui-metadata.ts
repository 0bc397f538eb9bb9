// What the Temporal Web UI shows for an instance without opening payloads: the static summary and
// details set at start (user metadata), shared by the HTTP side's start and the sub-process start.
// Pure string building: runs in the workflow sandbox and on the server alike.
import type { InstanceInfo } from './engine/types.js';

const oneLine = (s: string) => s.replace(/\s+/g, ' ').trim();

/** "Leave request · LR-2026-17 · by alice (v3)": the list's one-line summary. */
export function staticSummaryOf(instance: InstanceInfo): string {
  const version = instance.processVersion === null ? '' : ` v${instance.processVersion}`;
  const key = instance.businessKey ? ` · ${oneLine(instance.businessKey)}` : '';
  return `${oneLine(instance.processName)}${version}${key} · by ${instance.initiatorId}`;
}

/** The workflow page's fixed details (markdown). */
export function staticDetailsOf(instance: InstanceInfo, parent?: { instanceId: string; nodeId: string }): string {
  const lines = [
    `**Process:** ${oneLine(instance.processName)} (\`${instance.processKey}\`${instance.processVersion === null ? '' : ` version ${instance.processVersion}`})`,
    `**Business key:** ${instance.businessKey ? oneLine(instance.businessKey) : '—'}`,
    `**Initiator:** ${instance.initiatorId}`,
    `**Tenant:** ${instance.tenantId}`,
    `**Instance:** ${instance.id}`,
    `**Started:** ${instance.startTime}`,
  ];
  if (parent) lines.push(`**Sub-process of:** ${parent.instanceId} (node \`${parent.nodeId}\`)`);
  return lines.join('  \n');
}
