// Approvals and chains (docs/rule-chains.md): the chain-run workflow's `startProcess` node starts an
// approval (chainStartProcess), and the approval's `automation` node reads the chain it runs
// (loadChainForAutomation). Thin adapters over src/rule-chains/start-process.ts.
import { ApplicationFailure, Context } from '@temporalio/activity';
import type { ActivityDeps } from './deps.js';
import { AppError } from '../src/errors.js';
import { pgIntentLog } from '../src/read-model/projection-intents.js';
import { writeProjection } from '../src/read-model/writer.js';
import {
  loadChainForRun,
  startProcessFromChain,
  type ChainForRun,
  type ChainStartProcessInput,
} from '../src/rule-chains/start-process.js';
import { deliverProcessEvents } from '../src/rule-chains/process-events.js';

export function createChainStartProcessActivities(deps: ActivityDeps) {
  return {
    async loadChainForAutomation(input: { tenantId: string; chainId: string }): Promise<ChainForRun> {
      return loadChainForRun(deps.orm.em.fork(), input.tenantId, input.chainId);
    },

    /** Idempotent per callId: a retry answers the instance the first attempt started. */
    async chainStartProcess(input: ChainStartProcessInput): Promise<{ processInstanceId: string }> {
      const temporal = Context.current().client;
      const events = {
        orm: deps.orm,
        temporal,
        taskQueue: deps.config.TEMPORAL_TASK_QUEUE,
        logger: deps.logger,
      };
      try {
        return await startProcessFromChain(
          {
            config: deps.config,
            orm: deps.orm,
            temporal,
            // The start's first state, written here as the server writes the states it is answered.
            writeState: async (state, intent) => {
              await writeProjection(deps.orm, state, { writer: 'worker', intent });
              await deliverProcessEvents(events, state);
            },
            intents: pgIntentLog(deps.orm),
          },
          input,
        );
      } catch (err) {
        // What the request says wrong (no such process, user or permission, bad variables, a
        // business key in use) will not pass on a retry: the node fails with its message.
        if (err instanceof AppError && err.status < 500)
          throw ApplicationFailure.nonRetryable(err.message, err.type, err.data);
        throw err;
      }
    },
  };
}
