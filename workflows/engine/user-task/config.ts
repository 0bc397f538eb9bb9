// A userTask's configuration: its fields, the approvals it needs (thresholdFor), its due date (dueDateFor) and what its templates read.
import type { DslNode } from '../../../dsl/index.js';
import type { ApproveMode, Engine } from '../engine.js';

export interface UserTaskConfig {
  approver?: {
    type: string;
    userIds?: string[];
    roleIds?: string[];
    deptIds?: string[];
    levels?: number;
    expression?: string;
  };
  approveMode?: ApproveMode;
  voteRule?: { type: 'majority' | 'percent' | 'count'; value?: number };
  sequential?: boolean;
  selfApproval?: 'none' | 'skip' | 'autoApprove' | 'delegateToManager' | 'delegateToDeptManager';
  emptyApproverPolicy?: 'tenant_admin' | 'auto_approve' | 'park';
  timeout?: { dueInMinutes?: number; action?: 'remind' | 'autoApprove' | 'autoReject' };
  dueDate?: string;
  reject?: { strategy?: 'terminate' | 'toStarter' | 'toPrev' | 'toNode'; target?: string | null };
  taskName?: string;
  kind?: 'approval' | 'handle';
}

export const config = (node: DslNode): UserTaskConfig => (node.configuration ?? {}) as UserTaskConfig;

export function templateContext(engine: Engine) {
  return {
    msg: engine.variables,
    metadata: {
      instance_id: engine.info.id,
      process_key: engine.info.processKey,
      business_key: engine.info.businessKey,
      owner: engine.info.initiatorId,
      tenant_id: engine.info.tenantId,
    },
  };
}

/** Approvals needed for the node to pass. */
export function thresholdFor(mode: ApproveMode, n: number, rule?: UserTaskConfig['voteRule']): number {
  switch (mode) {
    case 'any':
    case 'single':
      return 1;
    case 'all':
    case 'sequential':
      return n;
    case 'vote': {
      const type = rule?.type ?? 'majority';
      if (type === 'percent') return Math.max(1, Math.ceil((n * (rule?.value ?? 50)) / 100));
      if (type === 'count') return Math.min(n, Math.max(1, rule?.value ?? 1));
      return Math.floor(n / 2) + 1;
    }
  }
}

export function dueDateFor(engine: Engine, cfg: UserTaskConfig): string | null {
  if (cfg.timeout?.dueInMinutes && cfg.timeout.dueInMinutes > 0) {
    return new Date(Date.parse(engine.now()) + cfg.timeout.dueInMinutes * 60_000).toISOString();
  }
  return cfg.dueDate ?? null;
}
