// Activity proxies of the chain-run workflow. Activities are imported as types only.
import { proxyActivities, proxyLocalActivities, type RetryPolicy } from '@temporalio/workflow';
import type { Activities } from '../../activities/index.js';

/** The run's row and run-time look-ups: short PostgreSQL work next to the workflow. */
export const chainLocal = proxyLocalActivities<Activities>({
  startToCloseTimeout: '30s',
  retry: { initialInterval: '200ms', maximumInterval: '10s', backoffCoefficient: 2 },
});

/**
 * Scripts run on any worker of the queue. A script's own error is final (the activity says so); a
 * worker lost mid-script is retried on another.
 */
export const scripts = proxyActivities<Activities>({
  startToCloseTimeout: '30s',
  retry: { initialInterval: '500ms', maximumAttempts: 3 },
});

/** restApiCall: the node's timeout per attempt, transport failures retried a few times (the log shows attempts). */
export function restActivities(timeoutMs: number, maximumAttempts: number) {
  return proxyActivities<Activities>({
    startToCloseTimeout: timeoutMs + 5000,
    retry: { initialInterval: '1s', backoffCoefficient: 2, maximumInterval: '10s', maximumAttempts },
  });
}

/** Webhook catalogue functions: the entry's timeout and retry policy, as the process serviceTask calls them. */
export function webhookCalls(timeoutMs: number, retry: RetryPolicy) {
  return proxyActivities<Activities>({ startToCloseTimeout: timeoutMs + 5000, retry });
}

/** Any activity type by name on a queue (catalogue activity functions, helper activities not typed here). */
export function namedActivities(options: {
  taskQueue?: string;
  startToCloseTimeout: number | string;
  retry: RetryPolicy;
}) {
  return proxyActivities<Record<string, (arg: unknown) => Promise<unknown>>>(options);
}
