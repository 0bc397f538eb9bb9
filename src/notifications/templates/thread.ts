// A render thread (./pool.ts): checks and renders tenants' message templates, one job at a time,
// each within the time it is given. Its heap is capped by the pool; it is terminated when a job
// passes its deadline. Nothing here reads a file, the network or the database.
import os from 'node:os';
import { parentPort } from 'node:worker_threads';
import type { TemplateField } from '../messages/index.js';
import { checkTemplateSync, renderMessageSync, type Deadline } from './message.js';
import type { RenderResult, ThreadMessage, ThreadRequest } from './pool.js';

const port = parentPort;
if (!port) throw new Error('src/notifications/templates/thread.ts runs as a worker thread (./pool.ts)');
const post = (m: ThreadMessage) => port.postMessage(m);
const RENDER_NICE = 10;

port.on('message', (job: ThreadRequest) => {
  const deadline: Deadline = { at: performance.now() + job.timeLeftMs, message: job.tooLong };
  const onPart = (field: TemplateField) => post({ id: job.id, field });
  try {
    if (job.op === 'check') {
      const result: RenderResult['check'] = checkTemplateSync(job.kind, job.locale, job.parts, { deadline, onPart });
      post({ id: job.id, result });
    } else {
      const fallbacks: RenderResult['render']['fallbacks'] = [];
      const message = renderMessageSync(job.ctx, {
        override: job.override,
        deadline,
        onPart,
        onFallback: (field, err) => fallbacks.push({ field, message: (err as Error)?.message ?? String(err) }),
      });
      post({ id: job.id, result: { message, fallbacks } satisfies RenderResult['render'] });
    }
  } catch (err) {
    post({ id: job.id, error: (err as Error)?.message ?? String(err) });
  }
});

// Below the threads that answer requests: on Linux a nice value is a thread's own (setpriority(2)),
// so this thread alone yields the CPU to the process's main thread on a busy machine. Elsewhere it
// would lower the whole process, so it is left as it is.
if (process.platform === 'linux')
  try {
    os.setPriority(0, RENDER_NICE);
  } catch {
    // Not allowed here: the thread runs at the process's priority.
  }

post({ ready: true });
