// The instance's "current details" in the Temporal Web UI (setCurrentDetails, served by the
// built-in __temporal_workflow_metadata query): who or what it waits for, where, since when — or
// where it failed and why. Also the summaries of its timers and activities. Deterministic: built
// from engine state and workflow time only.
import { setCurrentDetails, upsertSearchAttributes, workflowInfo } from '@temporalio/workflow';
import { InstanceStatus } from '../search-attributes.js';
import { staticSummaryOf } from '../ui-metadata.js';
import type { DslNode } from '../../dsl/index.js';
import type { Engine } from './engine.js';
import type { TaskState } from './types.js';

const MAX_LINES = 12;

/** "2026-11-23 09:12 UTC" from an ISO time. */
export function shortTime(iso: string | null | undefined): string {
  if (!iso) return '?';
  return `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;
}

/** A node as operators know it: its name, and its id when that differs. */
export function nodeLabel(engine: Engine, nodeId: string): string {
  const node = engine.doc.metadata.nodes.find((n) => n.id === nodeId);
  const name = node?.name?.trim();
  return name && name !== nodeId ? `${name} (${nodeId})` : nodeId;
}

export const nodeName = (node: DslNode) => node.name?.trim() || node.id;

/** A URL without its query and fragment (tokens often travel there), for summaries. */
export function safeUrl(url: string): string {
  return url.split(/[?#]/)[0];
}

function list(names: string[]): string {
  if (names.length <= 3) return names.join(', ');
  return `${names.slice(0, 3).join(', ')} and ${names.length - 3} more`;
}

function poolOf(task: TaskState): string {
  const parts: string[] = [];
  if (task.candidates.userIds.length) parts.push(list(task.candidates.userIds));
  if (task.candidates.roleIds.length) parts.push(`role ${task.candidates.roleIds.join(', ')}`);
  if (task.candidates.deptIds.length) parts.push(`department ${task.candidates.deptIds.join(', ')}`);
  return parts.join(' / ');
}

/** One line per thing the instance waits on (tasks grouped by node activation). */
function waits(engine: Engine): string[] {
  const lines: string[] = [];
  const groups = new Map<string, TaskState[]>();
  for (const t of engine.openTasks()) {
    if (t.status === 'waiting' && t.kind !== 'delay') continue; // a parent or a ballot whose turn has not come
    const key = `${t.runId}:${t.activityId}:${t.status === 'pending' ? 'pool' : 'people'}`;
    groups.set(key, [...(groups.get(key) ?? []), t]);
  }
  for (const tasks of groups.values()) {
    const t = tasks[0];
    const at = nodeLabel(engine, t.activityId);
    const since = shortTime(tasks.map((x) => x.createTime).sort()[0]);
    const paused = tasks.every((x) => x.status === 'suspended') ? ' (suspended)' : '';
    if (t.kind === 'delay') lines.push(`delay at ${at} until ${shortTime(t.dueDate)}${paused}`);
    else if (t.kind === 'resubmit')
      lines.push(`waiting for ${t.assignee} to resubmit at ${at} since ${since}${paused}`);
    else if (t.status === 'pending' || (t.status === 'suspended' && t.suspendedFrom === 'pending')) {
      const pool = poolOf(t);
      lines.push(
        pool
          ? `waiting for a claim by ${pool} at ${at} since ${since}${paused}`
          : `waiting for an admin to assign ${at} (no approver) since ${since}${paused}`,
      );
    } else {
      const people = [...new Set(tasks.map((x) => x.assignee).filter((a): a is string => Boolean(a)))];
      const due = tasks
        .map((x) => x.dueDate)
        .filter(Boolean)
        .sort()[0];
      lines.push(`waiting for ${list(people)} at ${at} since ${since}${due ? `, due ${shortTime(due)}` : ''}${paused}`);
    }
  }
  for (const tok of Object.values(engine.tokens)) {
    if (!tok.parked || tok.failed) continue;
    const node = engine.doc.metadata.nodes.find((n) => n.id === tok.nodeId);
    const at = nodeLabel(engine, tok.nodeId);
    if (node?.type === 'httpCall')
      lines.push(
        `calling ${((node.configuration ?? {}) as { method?: string }).method?.toUpperCase() ?? 'GET'} at ${at}`,
      );
    else if (node?.type === 'subProcess')
      lines.push(
        `waiting for sub-process ${((node.configuration ?? {}) as { targetId?: string }).targetId ?? ''} at ${at}`,
      );
    else if (node?.type === 'automation')
      lines.push(
        `waiting for rule chain ${((node.configuration ?? {}) as { targetId?: string }).targetId ?? ''} at ${at}`,
      );
    else if (node?.type === 'join')
      lines.push(`waiting at ${at} for the other branches${tok.wakeAt ? ` until ${shortTime(tok.wakeAt)}` : ''}`);
  }
  return lines;
}

/** The current details text (markdown; first line is the headline). */
export function currentDetails(engine: Engine): string {
  const lines: string[] = [];
  if (engine.ended)
    lines.push(`${engine.status} at ${shortTime(engine.endTime)}${engine.endReason ? `: ${engine.endReason}` : ''}`);
  else lines.push(...openLines(engine));
  // Continue-as-new cannot carry the static summary/details: a continued run repeats the summary.
  if (workflowInfo().continuedFromExecutionRunId)
    lines.push(`${staticSummaryOf(engine.info)} (continued run; started ${shortTime(engine.info.startTime)})`);
  return lines.join('  \n');
}

function openLines(engine: Engine): string[] {
  const lines: string[] = [];
  const d = engine.detail as { failedNode?: string; reason?: string; at?: string } | null;
  if (engine.status === 'failed' && d?.failedNode) {
    lines.push(
      `failed at ${nodeLabel(engine, d.failedNode)}: ${d.reason ?? 'unknown reason'} (since ${shortTime(d.at)}; an admin may re-drive)`,
    );
  } else if (engine.status === 'suspended') lines.push('suspended');
  const w = waits(engine);
  lines.push(...w.slice(0, MAX_LINES));
  if (w.length > MAX_LINES) lines.push(`… and ${w.length - MAX_LINES} more`);
  if (lines.length === 0) lines.push(engine.status === 'active' ? 'running' : engine.status);
  return lines;
}

/** Publishes the current details (cheap; no command, no history event). */
export function refreshDetails(engine: Engine) {
  setCurrentDetails(currentDetails(engine));
}

/** The Web UI's current details and the status search attribute follow the state (upserted only on a change). */
export function showState(engine: Engine) {
  refreshDetails(engine);
  if (engine.status !== engine.outbox.shownStatus)
    upsertSearchAttributes([{ key: InstanceStatus, value: engine.status }]);
  engine.outbox.shownStatus = engine.status;
}
