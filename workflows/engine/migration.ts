// Migration to another deployed version of the same process (docs/operations.md, workflow:admin).
// The plan is the pure dsl/migration-plan.ts, also used by the HTTP side's dry run: the
// validator refuses what the plan refuses before anything is written; the handler swaps the
// definition snapshot and the paths' positions in one step, then answers once projected.
import { ApplicationFailure, setHandler, upsertMemo, upsertSearchAttributes } from '@temporalio/workflow';
import { planMigration, type MigrationState } from '../../dsl/migration-plan.js';
import type { ErrorCode } from '../../src/errors.js';
import * as m from '../messages.js';
import { ProcessVersion } from '../search-attributes.js';
import type { Engine } from './engine.js';
import { onUpdate } from './handlers.js';
import { settle } from './actions/settle.js';
import { said } from '../../dsl/history.js';
import type { MigrationOutcome } from './types.js';

function refuse(type: ErrorCode, message: string, data: unknown = null): never {
  throw ApplicationFailure.create({ type, message, nonRetryable: true, details: [data] });
}

/** The state a migration plans from: open runs, open tasks, open regions. */
export function migrationStateOf(engine: Engine): MigrationState {
  return {
    tokens: Object.values(engine.tokens).map((t) => ({
      id: t.id,
      nodeId: t.nodeId,
      regionId: t.regionId,
      parked: t.parked,
      failed: !!t.failed,
    })),
    runs: Object.values(engine.runs)
      .filter((r) => !r.outcome)
      .map((r) => ({ id: r.id, nodeId: r.nodeId, tokenId: r.tokenId })),
    tasks: engine.openTasks().map((t) => ({
      id: t.id,
      activityId: t.activityId,
      name: t.name,
      kind: t.kind,
      status: t.status,
      assignee: t.assignee,
      runId: t.runId,
    })),
    regions: Object.values(engine.regions)
      .filter((r) => !r.fired)
      .map((r) => ({ id: r.id, forkId: r.forkId, joinId: r.joinId })),
    completedApprovals: [...engine.completedApprovals],
  };
}

const plan = (engine: Engine, input: m.MigrateInput) =>
  planMigration(migrationStateOf(engine), engine.doc, input.target.doc, input.nodeMapping ?? {});

export function registerMigration(engine: Engine) {
  setHandler(m.migrationState, () => ({
    status: engine.status,
    definitionId: engine.info.definitionId,
    processVersion: engine.info.processVersion,
    state: migrationStateOf(engine),
  }));

  onUpdate(
    engine,
    m.migrate,
    (input) => {
      const { target } = input;
      const outcome: MigrationOutcome = {
        changed: false,
        fromDefinitionId: engine.info.definitionId,
        fromVersion: engine.info.processVersion,
        toDefinitionId: target.definitionId,
        toVersion: target.version,
        plan: null,
      };
      // Already on the target: a repeat answers without changing anything.
      if (engine.info.definitionId === target.definitionId) return settle(engine, null, { migration: outcome });
      const p = plan(engine, input);
      outcome.plan = p;
      outcome.changed = true;

      // Everything below runs synchronously: no path observes a half-swapped instance.
      engine.doc = target.doc;
      engine.info.definitionId = target.definitionId;
      engine.info.processVersion = target.version;
      engine.info.processName = target.name;
      for (const move of p.nodes) {
        const token = engine.tokens[move.tokenId];
        if (!token || !move.to || move.outcome === 'kept') continue;
        const runs = Object.values(engine.runs).filter(
          (r) => r.tokenId === token.id && !r.outcome && r.nodeId === token.nodeId,
        );
        if (move.outcome === 'restarted') {
          // The path wakes from its userTask and runs the new node (awaitRun jumps to token.nodeId).
          for (const run of runs) {
            engine.cancelRun(run);
            run.outcome = 'cancelled';
            run.redriven = true;
          }
        } else for (const run of runs) run.nodeId = move.to;
        token.nodeId = move.to;
        if (token.failed && engine.detail?.failedNode === move.nodeId)
          engine.detail = { ...engine.detail, failedNode: move.to };
      }
      for (const t of p.tasks) {
        const task = engine.tasks[t.taskId];
        if (!task || !t.to || (t.outcome !== 'kept' && t.outcome !== 'moved')) continue;
        task.activityId = t.to;
        task.name = t.toName;
        // Projected again: its row takes the new process name and the node's form and action switches.
        engine.changed(task);
      }
      engine.completedApprovals = p.completedApprovals;
      for (const r of p.regions) {
        const region = engine.regions[r.regionId];
        if (region) Object.assign(region, { forkId: r.forkId, joinId: r.joinId });
      }
      const mapping = input.nodeMapping ?? {};
      engine.trail('migrate', {
        userId: input.actor.userId,
        ...said('instance.migrated', {
          actor: input.actor.userId,
          fromVersion: outcome.fromVersion ?? null,
          toVersion: target.version ?? null,
        }),
        detail: {
          fromVersion: outcome.fromVersion,
          toVersion: target.version,
          fromDefinitionId: outcome.fromDefinitionId,
          toDefinitionId: target.definitionId,
          mapping,
          nodes: p.nodes.map((n) => ({ nodeId: n.nodeId, outcome: n.outcome, to: n.to })),
          tasks: p.tasks.map((t) => ({ taskId: t.taskId, outcome: t.outcome, to: t.to })),
        },
      });
      upsertSearchAttributes([{ key: ProcessVersion, value: target.version }]);
      upsertMemo({ processName: target.name, processVersion: target.version, definitionId: target.definitionId });
      return settle(engine, null, { migration: outcome });
    },
    {
      validator: (input) => {
        if (!input.actor.admin) refuse('FORBIDDEN', 'Permission required: workflow:admin');
        if (engine.ended) refuse('INVALID_STATE', `The instance has ended (${engine.status})`);
        if (engine.status === 'suspended') refuse('INVALID_STATE', 'The instance is suspended: activate it first');
        if (input.target.processKey !== engine.info.processKey)
          refuse(
            'MIGRATION_TARGET_INVALID',
            `The target is a version of ${input.target.processKey}, not of ${engine.info.processKey}`,
          );
        if (engine.info.definitionId === input.target.definitionId) return;
        const p = plan(engine, input);
        if (p.mappingProblems.length)
          refuse('MIGRATION_MAPPING_INVALID', p.mappingProblems.join('; '), { problems: p.mappingProblems });
        if (!p.ok) refuse('MIGRATION_REFUSED', `Cannot migrate: ${p.refusals.map((r) => r.reason).join('; ')}`, p);
      },
    },
  );
}
