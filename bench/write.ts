// `npm run bench:write`: the read model's write alone — client CPU, PostgreSQL CPU and wall time
// per write of an approve-like state (a task closed, the next opened, two trail entries, a
// notification; every third state the final, archiving one). A change to the write costs or saves
// tenths of a millisecond, which the whole-service bench cannot resolve; this can, run against
// the change's parent (`farm-bench --vs`, or two checkouts side by side). Its own embedded
// PostgreSQL, migrated; BENCH_WRITE_N instances (default 500, 3 writes each) at
// BENCH_WRITE_CONCURRENCY (default 4) after a warm-up of 50; BENCH_WRITE_SETUP: statements run
// first, `;`-separated (e.g. `alter table tasks disable trigger user` to see what the triggers cost).
import { randomUUID } from 'node:crypto';
import { readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { writeProjection } from '../src/read-model/writer.js';
import { createOrm, migrate } from '../src/db/orm.js';
import { createLogger } from '../src/observability/logger.js';
import { startEmbeddedPostgres } from '../src/runtime/embedded-postgres.js';
import { freeLoopbackPort } from '../src/observability/worker-telemetry.js';
import type { ProjectionSnapshot } from '../workflows/engine/types.js';
import { cpuOfTrees } from './proc.js';
import { taskState } from '../test/helpers/snapshots.js';

const N = Number(process.env.BENCH_WRITE_N ?? 500);
const C = Number(process.env.BENCH_WRITE_CONCURRENCY ?? 4);
// Under .data, as the stacks' data: the embedded PostgreSQL runs as its own user, which may not enter a private temp folder.
const dataDir = path.resolve(import.meta.dirname, '..', '.data', `bench-write-${process.pid}`);
const pg = await startEmbeddedPostgres({
  dataDir,
  port: await freeLoopbackPort(),
  database: 'bench_write',
  logger: createLogger('error', 'bench'),
});
// One connection more than the writers: the migrations take two at once (with one they wait forever).
const orm = await createOrm(pg.url, { poolMax: C + 1 });
await migrate(orm);
for (const sql of (process.env.BENCH_WRITE_SETUP ?? '').split(';').filter((s) => s.trim()))
  await orm.em.fork().execute(sql);
const postmaster = Number(readFileSync(path.join(dataDir, 'postgres', 'postmaster.pid'), 'utf8').split('\n')[0]);

const now = () => new Date().toISOString();

/** State `seq` of an instance: the task opened by the state before closed, the next one opened (none in the final state). */
function state(id: string, seq: number, ended: boolean): ProjectionSnapshot {
  const closed = `${id}-t${seq - 1}`;
  const opened = `${id}-t${seq}`;
  const at = { activityId: `n${seq}`, name: `Step ${seq}`, createTime: now() };
  const entry = (suffix: string, type: string, taskId: string, detail: Record<string, unknown> | null) => ({
    id: `${id}-e${seq}${suffix}`,
    type,
    activityId: `n${seq}`,
    taskId,
    userId: 'bob',
    comment: null,
    time: now(),
    detail,
    seq,
  });
  return {
    seq,
    instance: {
      id,
      tenantId: 'bench',
      workflowId: `approval-bench-${id}`,
      definitionId: 'def-bench',
      processKey: 'bench_write',
      processVersion: 1,
      processName: 'Bench: write',
      businessKey: null,
      status: ended ? 'completed' : 'active',
      initiatorId: 'alice',
      variables: { amount: 120, purpose: 'travel' },
      currentNodes: ended ? [] : [`n${seq}`],
      startTime: now(),
      endTime: ended ? now() : null,
      endReason: ended ? 'approved' : null,
      endCode: null,
      endParams: null,
      detail: null,
    },
    tasks: [
      taskState(closed, seq - 1, { ...at, status: 'completed', result: 'approved', endTime: now() }),
      ...(ended ? [] : [taskState(opened, seq, at)]),
    ],
    formPermissions: {},
    actionPermissions: {},
    trail: [
      entry('a', 'approve', closed, null),
      ...(ended ? [] : [entry('b', 'assign', opened, { reason: 'user: listed in userIds' })]),
    ] as unknown as ProjectionSnapshot['trail'],
    cc: [],
    notifications: [
      {
        key: `${id}:${seq}`,
        userId: ended ? 'alice' : 'bob',
        kind: ended ? 'instance_ended' : 'task_assigned',
        taskId: ended ? null : opened,
        payload: { activityId: `n${seq}` },
      },
    ] as unknown as ProjectionSnapshot['notifications'],
    ended,
  };
}

async function instances(n: number) {
  let next = 0;
  await Promise.all(
    Array.from({ length: C }, async () => {
      while (next++ < n) {
        const id = randomUUID();
        for (let seq = 2; seq <= 4; seq++) await writeProjection(orm, state(id, seq, seq === 4), { writer: 'server' });
      }
    }),
  );
}

await instances(50);
const client0 = process.cpuUsage();
const pg0 = cpuOfTrees({ pg: postmaster }).pg ?? 0;
const t0 = performance.now();
await instances(N);
const client = process.cpuUsage(client0);
const pgMs = (cpuOfTrees({ pg: postmaster }).pg ?? 0) - pg0;
const wallMs = performance.now() - t0;
const writes = N * 3;
const f = (v: number) => Number(v.toFixed(3));
console.log(
  JSON.stringify({
    writes,
    concurrency: C,
    setup: process.env.BENCH_WRITE_SETUP ?? '',
    clientCpuMsPerWrite: f((client.user + client.system) / 1000 / writes),
    postgresCpuMsPerWrite: f(pgMs / writes),
    wallMsPerWrite: f((wallMs * C) / writes),
  }),
);
await orm.close();
await pg.stop();
rmSync(dataDir, { recursive: true, force: true });
