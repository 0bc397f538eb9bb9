// The floor of an approval API on bare Temporal (phase 1f of `npm run bench`): the least a
// server needs to offer the service's three requests over HTTP with the service's guarantees, on
// the same stack (Hono on Node, jose, pg, the Temporal client), in front of the bare workflow
// (bench/baseline/workflows.ts):
//
// * every request carries a JWT that is verified (HS256, as the service's own tokens);
// * start and approve record a write-ahead intent before their Update and write the answered
//   state with the intent's delete after it (engine version 4's mechanism, no activity), so the
//   acting user reads their own write and a lost write can be swept;
// * the to-do list is read from that state in PostgreSQL, not from the workflow.
//
// Nothing else: no directory, permissions, validation of forms, trail, notifications, archive.
// What the service spends beyond this server is its own. Run as a child process by bench/run.ts:
// TEMPORAL_ADDRESS, TEMPORAL_NAMESPACE, BASELINE_TASK_QUEUE, DATABASE_URL, BENCH_API_SECRET (the
// tokens' HS256 key), BENCH_API_APPROVERS (comma-separated); it prints `baseline api listening <port>`.
import { randomUUID } from 'node:crypto';
import { serve } from '@hono/node-server';
import { Client, Connection, WithStartWorkflowOperation } from '@temporalio/client';
import { defineSearchAttributeKey, SearchAttributeType } from '@temporalio/common';
import { Hono } from 'hono';
import { jwtVerify } from 'jose';
// @ts-expect-error -- pg ships no types here (as in src/infra/pg-listener.ts)
import pg from 'pg';
import * as bare from './workflows.js';

interface Pool {
  query(
    q: string | { name: string; text: string; values: unknown[] },
  ): Promise<{ rows: Array<Record<string, unknown>> }>;
}

const env = (name: string) => {
  const v = process.env[name];
  if (!v) throw new Error(`${name} must be set`);
  return v;
};
const taskQueue = env('BASELINE_TASK_QUEUE');
const secret = new TextEncoder().encode(env('BENCH_API_SECRET'));
const approvers = env('BENCH_API_APPROVERS').split(',');
const pool: Pool = new pg.Pool({ connectionString: env('DATABASE_URL'), max: 10 });
const client = new Client({
  connection: Connection.lazy({ address: env('TEMPORAL_ADDRESS') }),
  namespace: process.env.TEMPORAL_NAMESPACE ?? 'default',
});

await pool.query(`create table if not exists bench_api_state (
  id text primary key, step int not null, task_id text, assignee text, status text not null)`);
await pool.query(
  `create index if not exists bench_api_state_todo on bench_api_state (assignee) where status = 'active'`,
);

/** The answered state, and the intent it settles deleted, in one statement. */
const write = (id: string, s: bare.BareState, updateId: string) =>
  pool.query({
    name: 'write',
    text: `with w as (insert into bench_api_state (id, step, task_id, assignee, status) values ($1, $2, $3, $4, $5)
             on conflict (id) do update set step = excluded.step, task_id = excluded.task_id,
               assignee = excluded.assignee, status = excluded.status where bench_api_state.step < excluded.step),
           d as (delete from projection_intents where update_id = $6)
         select 1`,
    values: [id, s.step, s.taskId, s.assignee, s.status, updateId],
  });

const keyword = (name: string) => defineSearchAttributeKey(name, SearchAttributeType.KEYWORD);

type Env = { Variables: { user: string } };
const app = new Hono<Env>();
app.use('*', async (c, next) => {
  const token = c.req.header('Authorization')?.replace(/^Bearer /, '');
  if (!token) return c.json({ code: 40100 }, 401);
  try {
    const { payload } = await jwtVerify(token, secret, { algorithms: ['HS256'] });
    c.set('user', String(payload.sub));
  } catch {
    return c.json({ code: 40100 }, 401);
  }
  await next();
});

/**
 * What a start may ask for on top of the floor, to measure what the service's workflow carries
 * beyond it (cumulative parts of phase 1f): `metadata` — the service's six search attributes,
 * memo and Web UI summary at start and the status upsert at the end; `payloads` — a start input
 * and answers of the service's sizes; `lookUps` — one local activity in each approve that opens a
 * step (the service's approver look-up).
 */
interface StartParts {
  metadata?: boolean;
  payloads?: boolean;
  lookUps?: boolean;
}

app.post('/start', async (c) => {
  const { id, metadata, payloads, lookUps } = await c.req.json<{ id: string } & StartParts>();
  const updateId = `start-${id}`;
  await pool.query({
    name: 'intent',
    text: `insert into projection_intents (update_id, tenant_id, instance_id) values ($1, 'bench', $2) on conflict do nothing`,
    values: [updateId, id],
  });
  const state = await client.workflow.executeUpdateWithStart(bare.sync, {
    startWorkflowOperation: new WithStartWorkflowOperation(bare.bareApproval, {
      workflowId: id,
      taskQueue,
      args: [
        {
          approvers,
          upsertStatus: metadata,
          lookUpEachStep: lookUps,
          // The service's start input is about 4 KB, its answers about 2.6 KB (test/histories).
          ...(payloads ? { pad: 2_500, padding: 'x'.repeat(4_000) } : {}),
        },
      ],
      workflowIdConflictPolicy: 'USE_EXISTING',
      ...(metadata
        ? {
            typedSearchAttributes: [
              { key: keyword('ProcessKey'), value: 'bench_chain3' },
              { key: keyword('BusinessKey'), value: id },
              { key: keyword('InstanceStatus'), value: 'active' },
              { key: keyword('Initiator'), value: c.get('user') },
              { key: keyword('TenantId'), value: 'bench' },
              { key: defineSearchAttributeKey('ProcessVersion', SearchAttributeType.INT), value: 1 },
            ],
            memo: { processName: 'Bench chain', processVersion: 1, definitionId: id },
            staticSummary: `bench_chain3 · ${id}`,
            staticDetails: `Bench chain v1\nbusiness key ${id}\ninitiator ${c.get('user')}`,
          }
        : {}),
    }),
    updateId,
  });
  await write(id, state, updateId);
  return c.json({ data: { instanceId: id, step: state.step, status: state.status } });
});

app.get('/todo', async (c) => {
  const { rows } = await pool.query({
    name: 'todo',
    text: `select id as "instanceId", task_id as "taskId" from bench_api_state where assignee = $1 and status = 'active' order by id limit 50`,
    values: [c.get('user')],
  });
  return c.json({ data: { items: rows } });
});

app.post('/instances/:id/approve', async (c) => {
  const id = c.req.param('id');
  const { taskId } = await c.req.json<{ taskId: string }>();
  const updateId = randomUUID();
  // The look-up and the intent in one round trip, as the service's task look-up.
  const { rows } = await pool.query({
    name: 'look-up',
    text: `with i as (insert into projection_intents (update_id, tenant_id, instance_id)
             select $1, 'bench', id from bench_api_state where id = $2 and assignee = $3 and task_id = $4)
           select 1 from bench_api_state where id = $2 and assignee = $3 and task_id = $4`,
    values: [updateId, id, c.get('user'), taskId],
  });
  if (!rows.length) return c.json({ code: 40400 }, 404);
  const state = await client.workflow
    .getHandle(id)
    .executeUpdate(bare.approve, { args: [{ taskId, userId: c.get('user') }], updateId });
  await write(id, state, updateId);
  return c.json({ data: { step: state.step, status: state.status } });
});

serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 }, (info) =>
  console.log(`baseline api listening ${info.port}`),
);
// A normal exit on SIGTERM, so that --cpu-prof (BENCH_PROFILE=1) writes its profile.
process.once('SIGTERM', () => process.exit(0));
