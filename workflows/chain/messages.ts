// The chain-run workflow's query, shared by the workflow and the server (a running run's log).
import { defineQuery } from '@temporalio/workflow';
import type { NodeRunLog } from '../../chains/types.js';

export interface ChainRunState {
  status: 'running' | 'succeeded' | 'failed';
  /** Node visits finished so far, in the order they finished. */
  logs: NodeRunLog[];
  /** Nodes being visited now (an activity, a delay, a join waiting). */
  running: string[];
  error: { nodeId: string | null; message: string } | null;
}

export const chainRunState = defineQuery<ChainRunState>('chainRunState');
