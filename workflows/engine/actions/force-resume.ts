// ForceResume (docs/monitoring.md, workflow:admin): moves a parallel region past a join that will never fire.
// The validator only reads; the handler answers once the instance is settled (next tasks exist).
import * as m from '../../messages.js';
import type { Engine } from '../engine.js';
import { said } from '../../../dsl/history.js';
import { onUpdate } from '../handlers.js';
import { fault, requireAdminOnRunning } from '../guards.js';
import { spawn } from '../interpreter.js';
import { settle } from './settle.js';
import { openRegions, planRegion } from './path-waits.js';

export function registerForceResume(engine: Engine) {
  onUpdate(
    engine,
    m.forceResume,
    (input) => {
      engine.approversAhead = null; // as for a re-drive

      for (const plan of openRegions(engine).map((r) => planRegion(engine, r))) {
        if (!plan.ok) continue;
        const { region, branches } = plan;
        for (const b of branches) {
          if (b.run) {
            engine.cancelRun(b.run);
            b.run.outcome = 'cancelled';
          }
          // A failed branch stays parked until the instance leaves `failed`, then ends quietly.
          b.token.abandoned = true;
          b.token.regionId = null;
        }
        region.fired = true;
        delete engine.regions[region.id];
        const given = [...new Set(branches.map((b) => b.node.id))];
        engine.trail('system', {
          activityId: region.joinId,
          userId: input.actor.userId,
          ...said('instance.forceResumed', {
            actor: input.actor.userId,
            joinId: region.joinId ?? '',
            branches: given,
            reason: input.reason ?? null,
          }),
          detail: {
            action: 'force_resume',
            forkId: region.forkId,
            joinId: region.joinId,
            arrived: region.arrived.length,
            expected: region.expected,
            abandoned: given,
            reason: input.reason ?? null,
          },
        });
        // A path without a region passes the join and follows its Success connection.
        spawn(engine, region.joinId!, null);
      }
      if (engine.status === 'failed' && !Object.values(engine.tokens).some((t) => t.failed && !t.abandoned)) {
        engine.detail = null;
        engine.setInstanceStatus('active');
      }
      return settle(engine, null);
    },
    {
      validator: (input) => {
        requireAdminOnRunning(engine, input);
        const regions = openRegions(engine);
        if (!regions.length)
          fault('INVALID_STATE', 'No open parallel region: force-resume applies to a fork/join whose join never fired');
        const plans = regions.map((r) => planRegion(engine, r));
        if (!plans.some((p) => p.ok))
          fault('INVALID_STATE', `Cannot force-resume: ${plans.map((p) => (p.ok ? '' : p.why)).join('; ')}`);
      },
    },
  );
}
