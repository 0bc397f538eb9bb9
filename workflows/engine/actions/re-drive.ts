// ReDrive (docs/monitoring.md, workflow:admin): runs the current node of a failed or stuck path again.
// The validator only reads; the handler answers once the instance is settled (next tasks exist).
import * as m from '../../messages.js';
import type { Engine } from '../engine.js';
import { said } from '../../../dsl/history.js';
import { onUpdate } from '../handlers.js';
import { fault, requireAdminOnRunning } from '../guards.js';
import { settle } from './settle.js';
import { openRegions, redrivable, waits } from './path-waits.js';

export function registerReDrive(engine: Engine) {
  onUpdate(
    engine,
    m.reDrive,
    (input) => {
      const targets = waits(engine).filter(redrivable);
      const failed = targets.filter((w) => w.state === 'failed').map((w) => w.node.id);
      const stuck = targets.filter((w) => w.state === 'stuck');
      // A repair runs nodes against the directory as it is now (an admin may have just fixed it).
      engine.approversAhead = null;
      for (const w of stuck) {
        // The path wakes from its userTask and runs the node again: approvers are resolved afresh.
        engine.cancelRun(w.run!);
        w.run!.outcome = 'cancelled';
        w.run!.redriven = true;
      }
      const nodes = [...new Set(targets.map((w) => w.node.id))];
      engine.trail('system', {
        activityId: nodes[0] ?? null,
        userId: input.actor.userId,
        ...said('instance.redriven', { actor: input.actor.userId, nodes, reason: input.reason ?? null }),
        detail: {
          action: 're_drive',
          failedNodes: failed,
          stuckNodes: stuck.map((w) => w.node.id),
          reason: input.reason ?? null,
        },
      });
      // Failed paths wait for the status to leave `failed`, then run their node again.
      if (engine.status === 'failed') engine.setInstanceStatus('active');
      return settle(engine, null);
    },
    {
      validator: (input) => {
        requireAdminOnRunning(engine, input);
        if (engine.status === 'failed') return;
        const all = waits(engine);
        if (all.some(redrivable)) return;
        const busy = all.filter((w) => w.state === 'busy').map((w) => w.why);
        if (busy.length) fault('INVALID_STATE', `The instance is not stuck: ${busy.join('; ')}`);
        const region = openRegions(engine).find((r) => r.joinId);
        if (region)
          fault(
            'INVALID_STATE',
            `Nothing to re-drive: join ${region.joinId} waits for branches that will not arrive; use force-resume`,
          );
        fault('INVALID_STATE', 'Nothing to re-drive: no failed or stuck node');
      },
    },
  );
}
