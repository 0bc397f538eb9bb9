// `npm run fuzz`: Schemathesis against a throwaway stack, once per identity. See docs/fuzz.md.
//
//   npm run fuzz                 full pass: alice (employee), demo admin, system admin
//   npm run fuzz -- --quick      the bounded pass `npm test` runs
//   npm run fuzz -- <args>       any other argument goes to `schemathesis run` as is
//
// Exits non-zero when any response was a 5xx (or a pass could not run), or when a case failed one
// of the contract checks (CONTRACT_CHECKS: the document and the server disagree); every other check
// failure is reported, and fails the run with FUZZ_STRICT=1. FUZZ_STRICT=0: only 5xx fail it.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, openSync, readFileSync, writeFileSync, closeSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { createOrm } from '../src/db/orm.js';
import { EMPLOYEE, seed } from '../src/directory/seed.js';
import { hashPassword } from '../src/infra/passwords.js';
import { deployDemoProcesses } from '../src/definitions/demo-processes.js';
import { TOOLS_DIR } from '../src/runtime/temporal-cli.js';
import { CHANNEL_KINDS } from '../src/notifications/messages/index.js';
import { CONTRACT_CHECKS, failPolicy, verdict } from './fuzz/verdict.js';

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, '..');

export const SCHEMATHESIS_VERSION = '4.32.5';

/** Configuration and hooks of every pass (why each setting: docs/fuzz.md, "Configuration"). */
const CONFIG_FILE = path.join(root, 'scripts/fuzz/schemathesis.toml');
const HOOKS_FILE = path.join(root, 'scripts/fuzz/hooks.py');

// ---------------------------------------------------------------------------------------------
// Options

const argv = process.argv.slice(2);
const quick = argv.includes('--quick') || process.env.FUZZ_QUICK === '1';
const passThrough = argv.filter((a) => a !== '--quick');
const env = process.env;

const IDENTITIES = {
  alice: { username: 'alice', password: 'demo', tenantId: 'demo', role: 'employee (demo tenant)' },
  admin: { username: 'admin', password: 'admin', tenantId: 'demo', role: 'administrator, `*` in the demo tenant' },
  system: {
    username: 'admin',
    password: 'admin',
    tenantId: 'system',
    role: 'system administrator, `*` in the system tenant',
  },
} as const;
type IdentityName = keyof typeof IDENTITIES;

const options = {
  quick,
  // Employee first: it can destroy least, so its results are not spoiled by an admin's deletes.
  // --quick: the admin alone reaches every route past 403 and keeps `npm test` within ~3 min.
  identities: (env.FUZZ_IDENTITIES ?? (quick ? 'admin' : 'alice,admin,system'))
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean) as IdentityName[],
  maxExamples: Number(env.FUZZ_MAX_EXAMPLES ?? (quick ? 3 : 30)),
  seconds: env.FUZZ_SECONDS ? Number(env.FUZZ_SECONDS) : undefined,
  checks: env.FUZZ_CHECKS ?? 'all',
  excludeChecks: env.FUZZ_EXCLUDE_CHECKS ?? '',
  phases: env.FUZZ_PHASES ?? '',
  workers: env.FUZZ_WORKERS ?? '2',
  // Some actions on a broken instance hang ~40 s before a 503; a bound keeps the pass bounded.
  requestTimeout: env.FUZZ_REQUEST_TIMEOUT ?? '10',
  seed: env.FUZZ_SEED ?? '',
  // 1: every check fails the run; 0: only server errors; unset: server errors and CONTRACT_CHECKS.
  ...failPolicy(env),
  logLevel: env.FUZZ_LOG_LEVEL ?? 'info',
  outDir: env.FUZZ_OUT ?? path.join(root, '.fuzz', new Date().toISOString().replace(/[:.]/g, '-')),
};
for (const id of options.identities) {
  if (!(id in IDENTITIES))
    throw new Error(`FUZZ_IDENTITIES: unknown identity ${id} (known: ${Object.keys(IDENTITIES).join(', ')})`);
}

// ---------------------------------------------------------------------------------------------
// Schemathesis in a git-ignored venv, like the Temporal CLI (src/runtime/temporal-cli.ts)

async function findSchemathesis(): Promise<string> {
  if (env.SCHEMATHESIS) return env.SCHEMATHESIS;
  const venv = path.join(TOOLS_DIR, 'schemathesis');
  const bin = path.join(venv, 'bin', 'schemathesis');
  if (existsSync(bin)) {
    const { stdout } = await run(bin, ['--version']).catch(() => ({ stdout: '' }));
    if (stdout.includes(SCHEMATHESIS_VERSION)) return bin;
  }
  mkdirSync(TOOLS_DIR, { recursive: true });
  if (!existsSync(path.join(venv, 'bin', 'pip'))) {
    console.log(`fuzz: creating a Python venv in ${path.relative(root, venv)}`);
    try {
      await run('python3', ['-m', 'venv', venv]);
    } catch (err) {
      throw new Error(
        `Could not create a Python venv (${(err as Error).message}). Install python3 with venv support, or set SCHEMATHESIS.`,
        { cause: err },
      );
    }
  }
  console.log(`fuzz: installing schemathesis==${SCHEMATHESIS_VERSION} from PyPI`);
  try {
    await run(path.join(venv, 'bin', 'pip'), ['install', '--quiet', `schemathesis==${SCHEMATHESIS_VERSION}`], {
      maxBuffer: 16 * 1024 * 1024,
    });
  } catch (err) {
    throw new Error(
      `pip could not install schemathesis==${SCHEMATHESIS_VERSION} (${(err as Error).message.split('\n')[0]}). Set SCHEMATHESIS to a schemathesis binary.`,
      { cause: err },
    );
  }
  return bin;
}

// ---------------------------------------------------------------------------------------------
// The stack, in a child process whose output (server and worker logs included) goes to a file

interface StackInfo {
  baseUrl: string;
  databaseUrl: string;
}

async function startFuzzStack(
  logFile: string,
): Promise<{ info: StackInfo; child: ChildProcess; stop(): Promise<void> }> {
  const infoFile = path.join(options.outDir, 'stack.json');
  const fd = openSync(logFile, 'a');
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'scripts/fuzz-stack.ts')], {
    cwd: root,
    env: { ...env, FUZZ_STACK_INFO: infoFile, FUZZ_LOG_LEVEL: options.logLevel },
    stdio: ['ignore', fd, fd],
  });
  closeSync(fd);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    await exited;
    clearTimeout(timer);
  };
  const deadline = Date.now() + 240_000;
  while (!existsSync(infoFile)) {
    if (child.exitCode !== null)
      throw new Error(`the fuzz stack exited during start-up; see ${logFile}:\n${tail(logFile)}`);
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`the fuzz stack did not start within 240 s; see ${logFile}`);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  return { info: JSON.parse(readFileSync(infoFile, 'utf8')), child, stop };
}

function tail(file: string, lines = 30): string {
  try {
    return readFileSync(file, 'utf8').split('\n').slice(-lines).join('\n');
  } catch {
    return '';
  }
}

/** Puts back what a previous pass may have deleted (users, roles, departments, the demo tenant). */
async function reseed(databaseUrl: string) {
  const orm = await createOrm(databaseUrl);
  try {
    await restoreIdentities(orm);
  } finally {
    await orm.close();
  }
}

async function restoreIdentities(orm: Awaited<ReturnType<typeof createOrm>>) {
  await seed(orm.em.fork(), { adminPassword: 'admin', demoPassword: 'demo', demo: true });
  // Seeding only creates what is missing; a pass may also have deactivated the identities or
  // changed the roles that give them their permissions.
  const conn = orm.em.getConnection();
  await conn.execute(
    `update users set active = true, roles = '["admin"]' where (tenant_id, id) in (('system', 'admin'), ('demo', 'admin'))`,
  );
  await conn.execute(
    `update users set active = true, roles = '["employee"]' where tenant_id = 'demo' and id = 'alice'`,
  );
  await conn.execute(`update roles set permissions = '["*"]' where code = 'admin' and tenant_id in ('system', 'demo')`);
  // Fed real role codes, a pass also rewrites alice's role (PATCH /roles/employee): the next
  // pass's fixtures start instances as alice.
  await conn.execute(`update roles set permissions = ? where code = 'employee' and tenant_id = 'demo'`, [
    JSON.stringify(EMPLOYEE),
  ]);
  // A pass that is fed real user ids (passConfig) also renames them and changes their passwords
  // (PATCH /users/alice): the next pass logs in with the seeded username and password (user id = username).
  for (const who of Object.values(IDENTITIES)) {
    await conn.execute(
      `update users set username = username || '.' || id where tenant_id = ? and username = ? and id <> ?`,
      [who.tenantId, who.username, who.username],
    );
    await conn.execute(`update users set username = ?, password_hash = ? where tenant_id = ? and id = ?`, [
      who.username,
      await hashPassword(who.password),
      who.tenantId,
      who.username,
    ]);
  }
}

const IDENTITIES_INTACT = `
  select
    (select count(*) from users u where (u.tenant_id, u.id) in (('system', 'admin'), ('demo', 'admin'), ('demo', 'alice')) and u.active)::int as users,
    (select count(*) from roles r where r.code = 'admin' and r.tenant_id in ('system', 'demo') and r.permissions::jsonb @> '["*"]'::jsonb)::int as roles`;

/**
 * Test data the fuzzer can find through list responses (Schemathesis feeds ids it sees into
 * path parameters): the example processes of `examples/` (as `npm start` deploys them) and a
 * few running instances started by alice, so task and instance operations get past 404.
 */
async function fixtures(baseUrl: string, databaseUrl: string, pass: string) {
  const orm = await createOrm(databaseUrl);
  try {
    await deployDemoProcesses(orm.em.fork());
  } finally {
    await orm.close();
  }
  const token = await login(baseUrl, 'alice');
  const starts = [
    { processKey: 'leave_request', variables: { days: 5 } },
    { processKey: 'expense_claim', variables: { amount: 120 } },
    { processKey: 'purchase_request', variables: { amount: 300 } },
  ];
  let started = 0;
  // Twice each: the fuzzer decides, withdraws and deletes the instances it finds ids of.
  for (const [i, body] of [...starts, ...starts].entries()) {
    const res = await fetch(`${baseUrl}/api/v1/workflow/process-instances/start`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ ...body, businessKey: `fuzz-${pass}-${i}` }),
    });
    if (res.ok) started++;
    else
      console.log(`fuzz: fixture ${body.processKey} did not start: ${res.status} ${(await res.text()).slice(0, 200)}`);
  }
  return started;
}

/**
 * Ids that name something, for the path parameters of each operation (a per-pass configuration:
 * `[dictionaries]` and `[operations.parameters]` bindings, drawn with probability 0.5). Without
 * them Schemathesis links no list to the operations that take an id (the document has no OpenAPI
 * links), and every case of those operations is a 404 for an id that names nothing: the handlers
 * and their body validation would be tested only past a 404 check that always fails.
 */
async function passConfig(databaseUrl: string, tenantId: string, reportDir: string): Promise<string> {
  const orm = await createOrm(databaseUrl);
  const ids: Record<string, string[]> = {};
  try {
    const conn = orm.em.getConnection();
    const column = async (name: string, sql: string) => {
      const params = sql
        .split('?')
        .slice(1)
        .map(() => tenantId);
      const rows: Array<{ v: string | number }> = await conn.execute(sql, params);
      ids[name] = [...new Set(rows.map((r) => String(r.v)))];
    };
    await column(
      'instances',
      `(select id as v from instances where tenant_id = ? order by start_time desc limit 30)
       union all (select id from instances_archive where tenant_id = ? order by start_time desc limit 5)`,
    );
    await column(
      'tasks',
      `(select id as v from tasks where tenant_id = ? order by create_time desc limit 30)
       union all (select id from tasks_archive where tenant_id = ? order by create_time desc limit 5)`,
    );
    await column('definitions', `select id as v from process_definitions where tenant_id = ?`);
    await column('processKeys', `select distinct key as v from process_definitions where tenant_id = ?`);
    await column('forms', `select id as v from forms where tenant_id = ?`);
    await column('formKeys', `select distinct key as v from forms where tenant_id = ?`);
    await column('users', `select id as v from users where tenant_id = ?`);
    await column('roles', `select code as v from roles where tenant_id = ?`);
    await column('departments', `select id as v from departments where tenant_id = ?`);
    await column('functions', `select name as v from service_functions where tenant_id = ?`);
    await column('agents', `select agent_id as v from ai_agents where tenant_id = ?`);
    await column('channels', `select id as v from notification_channels where tenant_id = ?`);
    await column('notifications', `select id as v from notifications where tenant_id = ? order by id desc limit 30`);
  } finally {
    await orm.close();
  }
  ids.kinds = [...CHANNEL_KINDS];
  ids.locales = ['en', 'zh-CN'];
  ids.variables = ['days', 'amount'];
  const bindings: Array<[string, Record<string, string>]> = [
    ['/api/v1/workflow/(tasks|tasks/urge|tasks/history)/\\{id\\}', { 'path.id': 'tasks' }],
    ['/api/v1/workflow/process-instances/\\{id\\}', { 'path.id': 'instances' }],
    ['/api/v1/workflow/process-definitions/\\{id\\}', { 'path.id': 'definitions', 'path.otherId': 'definitions' }],
    ['/api/v1/workflow/process-definitions/key/\\{processKey\\}', { 'path.processKey': 'processKeys' }],
    ['/api/v1/forms/\\{id\\}', { 'path.id': 'forms' }],
    ['/api/v1/forms/key/\\{formKey\\}', { 'path.formKey': 'formKeys' }],
    ['/api/v1/users/\\{id\\}', { 'path.id': 'users' }],
    ['/api/v1/roles/\\{code\\}', { 'path.code': 'roles' }],
    ['/api/v1/departments/\\{id\\}', { 'path.id': 'departments' }],
    ['/api/v1/service-functions/\\{name\\}', { 'path.name': 'functions' }],
    ['/api/v1/ai-agents/\\{agentId\\}', { 'path.agentId': 'agents' }],
    ['/api/v1/notification-channels/\\{id\\}', { 'path.id': 'channels', 'path.userId': 'users' }],
    ['/api/v1/notification-templates/\\{kind\\}/\\{locale\\}', { 'path.kind': 'kinds', 'path.locale': 'locales' }],
    ['/api/v1/notifications/\\{id\\}', { 'path.id': 'notifications' }],
    [
      '/api/v1/workflow/(tasks|process-instances)/\\{id\\}/variables/\\{variableName\\}',
      { 'path.variableName': 'variables' },
    ],
  ];
  const toml = (v: string) => JSON.stringify(v);
  const out = [readFileSync(CONFIG_FILE, 'utf8'), '', '# ---- ids of this pass (scripts/fuzz.ts, passConfig) ----', ''];
  for (const [name, values] of Object.entries(ids)) {
    if (!values.length) continue;
    out.push(`[dictionaries.${name}]`, `values = [${values.map(toml).join(', ')}]`, '');
  }
  for (const [route, params] of bindings) {
    const usable = Object.entries(params).filter(([, dict]) => ids[dict]?.length);
    if (!usable.length) continue;
    out.push('[[operations]]', `include-name-regex = '^[A-Z]+ ${route}'`, '[operations.parameters]');
    for (const [param, dict] of usable) out.push(`${toml(param)} = { dictionary = ${toml(dict)}, probability = 0.5 }`);
    out.push('');
  }
  const file = path.join(reportDir, 'schemathesis.toml');
  writeFileSync(file, out.join('\n'));
  return file;
}

/**
 * Re-seeds every second while a pass runs: an admin pass finds its own user id in list responses
 * and deletes or deactivates itself (DELETE /users/admin answers 200), which would turn the rest
 * of the pass into 401s. The JWT names the user, so putting the row back revives the token.
 */
function guardian(databaseUrl: string) {
  let stopped = false;
  let restores = 0;
  const loop = (async () => {
    const orm = await createOrm(databaseUrl);
    try {
      while (!stopped) {
        const conn = orm.em.getConnection();
        try {
          const [row] = await conn.execute(IDENTITIES_INTACT);
          if (row.users !== 3 || row.roles !== 2) {
            restores++;
            await restoreIdentities(orm);
          }
        } catch (err) {
          console.log(`fuzz: guardian could not check the identities: ${(err as Error).message}`);
        }
        await new Promise((r) => setTimeout(r, 1000));
      }
    } finally {
      await orm.close();
    }
  })();
  return {
    async stop() {
      stopped = true;
      await loop;
      return restores;
    },
  };
}

async function login(baseUrl: string, who: IdentityName): Promise<string> {
  const { username, password, tenantId } = IDENTITIES[who];
  for (let attempt = 1; ; attempt++) {
    const res = await fetch(`${baseUrl}/api/v1/auth/login`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ username, password, ...(tenantId ? { tenantId } : {}) }),
    });
    const body = (await res.json().catch(() => null)) as any;
    if (res.ok && body?.data?.accessToken) return body.data.accessToken;
    if (res.status === 429 && attempt < 5) {
      const wait = Number(res.headers.get('retry-after') ?? 15);
      console.log(`fuzz: login as ${who} rate limited; waiting ${wait} s`);
      await new Promise((r) => setTimeout(r, wait * 1000));
      continue;
    }
    throw new Error(`login as ${who} failed: ${res.status} ${JSON.stringify(body)}`);
  }
}

async function tokenStillWorks(baseUrl: string, token: string): Promise<boolean> {
  const res = await fetch(`${baseUrl}/api/v1/notifications`, { headers: { Authorization: `Bearer ${token}` } }).catch(
    () => null,
  );
  return !!res && res.status === 200;
}

// ---------------------------------------------------------------------------------------------
// One Schemathesis pass

interface Interaction {
  endpoint: string; // METHOD /path/{template}
  method: string;
  uri: string;
  requestBody: string | null;
  status: number;
  responseBody: string;
  requestId: string | null;
  phase: string;
}

interface CheckFailure extends Interaction {
  check: string;
  code: string;
  title: string;
  message: string;
}

interface PassResult {
  identity: IdentityName;
  role: string;
  exitCode: number | null;
  seconds: number;
  seed: number | null;
  operations: { total: number; tested: number; errored: number };
  cases: { generated: number; withFailures: number; uniqueFailures: number };
  failuresByCheck: Record<string, { count: number; endpoints: string[] }>;
  /** The pass could not run or complete. */
  errors: string[];
  /** Errors Schemathesis reports about itself (not server responses). */
  toolErrors: string[];
  serverErrors: Interaction[];
  checkFailures: CheckFailure[];
  identityLost: boolean;
  /** How often the guardian put a deleted / deactivated identity back during the pass. */
  identityRestores: number;
  reportDir: string;
  warnings: Record<string, number>;
}

const b64 = (v: any): string | null => {
  if (v == null) return null;
  if (typeof v === 'string') return v;
  if (typeof v.$base64 === 'string') return Buffer.from(v.$base64, 'base64').toString('utf8');
  return JSON.stringify(v);
};

function header(headers: Record<string, string[] | string> | undefined, name: string): string | null {
  if (!headers) return null;
  for (const [k, v] of Object.entries(headers)) if (k.toLowerCase() === name) return Array.isArray(v) ? v[0] : v;
  return null;
}

function parseNdjson(file: string) {
  const serverErrors: Interaction[] = [];
  const checkFailures: CheckFailure[] = [];
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (!line.startsWith('{"ScenarioFinished"')) continue;
    const ev = JSON.parse(line).ScenarioFinished;
    const rec = ev.recorder ?? {};
    const cases = rec.cases ?? {};
    const interactions = rec.interactions ?? {};
    for (const [caseId, it] of Object.entries<any>(interactions)) {
      const value = cases[caseId]?.value ?? {};
      const method = it.request?.method ?? value.method ?? '?';
      const endpoint = value.path ? `${String(value.method ?? method).toUpperCase()} ${value.path}` : rec.label;
      const x: Interaction = {
        endpoint,
        method,
        uri: it.request?.uri ?? '',
        requestBody: b64(it.request?.body),
        status: it.response?.status_code ?? 0,
        responseBody: (b64(it.response?.content) ?? '').slice(0, 600),
        requestId: header(it.response?.headers, 'x-request-id'),
        phase: ev.phase,
      };
      if (x.status >= 500) serverErrors.push(x);
      for (const c of rec.checks?.[caseId] ?? []) {
        if (c.status !== 'failure') continue;
        const f = c.failure_info?.failure ?? {};
        checkFailures.push({
          ...x,
          check: c.name,
          code: f.code ?? '',
          title: f.title ?? '',
          message: String(f.message ?? '').slice(0, 400),
        });
      }
    }
  }
  return { serverErrors, checkFailures };
}

function emptyPass(who: IdentityName, reportDir: string): PassResult {
  return {
    identity: who,
    role: IDENTITIES[who].role,
    exitCode: null,
    seconds: 0,
    seed: null,
    operations: { total: 0, tested: 0, errored: 0 },
    cases: { generated: 0, withFailures: 0, uniqueFailures: 0 },
    failuresByCheck: {},
    errors: [],
    toolErrors: [],
    serverErrors: [],
    checkFailures: [],
    identityLost: false,
    identityRestores: 0,
    reportDir,
    warnings: {},
  };
}

async function runPass(st: string, baseUrl: string, databaseUrl: string, who: IdentityName): Promise<PassResult> {
  const reportDir = path.join(options.outDir, who);
  mkdirSync(reportDir, { recursive: true });
  const token = await login(baseUrl, who);
  const configFile = await passConfig(databaseUrl, IDENTITIES[who].tenantId, reportDir);
  const args = [
    '--config-file',
    configFile,
    'run',
    `${baseUrl}/openapi.json`,
    '--checks',
    options.checks,
    ...(options.excludeChecks ? ['--exclude-checks', options.excludeChecks] : []),
    '--header',
    `Authorization: Bearer ${token}`,
    '--max-examples',
    String(options.maxExamples),
    '--workers',
    options.workers,
    '--request-timeout',
    options.requestTimeout,
    ...(options.seconds ? ['--max-time', String(options.seconds)] : []),
    ...(options.phases ? ['--phases', options.phases] : []),
    ...(options.seed ? ['--seed', options.seed] : []),
    '--report',
    'junit,ndjson,json',
    '--report-dir',
    reportDir,
    '--report-json-path',
    path.join(reportDir, 'report.json'),
    '--report-ndjson-path',
    path.join(reportDir, 'events.ndjson'),
    '--report-junit-path',
    path.join(reportDir, 'junit.xml'),
    // Reproductions need the real inputs (a throwaway stack's token is no secret).
    '--output-sanitize',
    'false',
    '--no-color',
    ...passThrough,
  ];
  const outFile = path.join(reportDir, 'schemathesis.out');
  const printable = args.map((a) => (a.startsWith('Authorization:') ? 'Authorization: Bearer <token>' : a));
  writeFileSync(outFile, `$ schemathesis ${printable.join(' ')}\n\n`);
  console.log(`\nfuzz: pass "${who}" (${IDENTITIES[who].role}) — output in ${path.relative(root, outFile)}`);
  const t0 = performance.now();
  const guard = guardian(databaseUrl);
  const fd = openSync(outFile, 'a');
  // cwd .fuzz/: Schemathesis keeps its example database (.hypothesis) there across runs.
  const child = spawn(st, args, {
    cwd: path.join(root, '.fuzz'),
    env: { ...env, SCHEMATHESIS_HOOKS: HOOKS_FILE },
    stdio: ['ignore', fd, fd],
  });
  closeSync(fd);
  const onSignal = () => child.kill('SIGINT');
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  const exitCode = await new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  process.off('SIGINT', onSignal);
  process.off('SIGTERM', onSignal);
  const seconds = (performance.now() - t0) / 1000;
  const identityRestores = await guard.stop();
  await reseed(databaseUrl);
  const identityLost = !(await tokenStillWorks(baseUrl, token));

  const result: PassResult = { ...emptyPass(who, reportDir), exitCode, seconds, identityLost, identityRestores };
  const reportFile = path.join(reportDir, 'report.json');
  if (!existsSync(reportFile)) {
    result.errors.push(`Schemathesis wrote no report (exit ${exitCode}); see ${outFile}:\n${tail(outFile, 15)}`);
    return result;
  }
  const report = JSON.parse(readFileSync(reportFile, 'utf8'));
  result.seed = report.seed ?? null;
  result.operations = {
    total: report.operations?.selected ?? 0,
    tested: report.operations?.tested ?? 0,
    errored: report.operations?.errored ?? 0,
  };
  result.cases = {
    generated: report.test_cases?.generated ?? 0,
    withFailures: report.test_cases?.with_failures ?? 0,
    uniqueFailures: report.test_cases?.unique_failures ?? 0,
  };
  for (const e of report.errors ?? [])
    result.toolErrors.push(typeof e === 'string' ? e : JSON.stringify(e).slice(0, 500));
  for (const [k, v] of Object.entries<any>(report.warnings ?? {}))
    if (Array.isArray(v) && v.length) result.warnings[k] = v.length;
  const ndjson = path.join(reportDir, 'events.ndjson');
  if (existsSync(ndjson)) Object.assign(result, parseNdjson(ndjson));
  for (const f of result.checkFailures) {
    const g = (result.failuresByCheck[f.check] ??= { count: 0, endpoints: [] });
    g.count++;
    if (!g.endpoints.includes(f.endpoint)) g.endpoints.push(f.endpoint);
  }
  return result;
}

// ---------------------------------------------------------------------------------------------
// Server errors: joined with the server log by request id, deduplicated by cause

interface LoggedError {
  type: string;
  message: string;
  frame: string;
}

function serverLogErrors(logFile: string): Map<string, LoggedError> {
  const byRequest = new Map<string, LoggedError>();
  for (const line of readFileSync(logFile, 'utf8').split('\n')) {
    if (!line.startsWith('{') || !line.includes('"requestId"')) continue;
    let entry: any;
    try {
      entry = JSON.parse(line);
    } catch {
      continue;
    }
    if (entry.level < 50 || !entry.requestId) continue;
    const err = entry.err ?? {};
    const stack: string = typeof err.stack === 'string' ? err.stack : '';
    const frame =
      stack
        .split('\n')
        .map((l) => l.trim())
        .find((l) => l.startsWith('at ') && l.includes(root) && !l.includes('node_modules'))
        ?.replace(root + '/', '') ?? '';
    byRequest.set(entry.requestId, { type: err.type ?? '', message: String(err.message ?? entry.msg ?? ''), frame });
  }
  return byRequest;
}

/** Values vary between cases; causes do not. */
function normalise(message: string): string {
  return message
    .replace(/"[^"]*"/g, '"…"')
    .replace(/'[^']*'/g, "'…'")
    .replace(/\b\d+(\.\d+)?\b/g, 'N')
    .slice(0, 300);
}

interface Cause {
  status: number;
  error: string;
  frame: string;
  endpoints: string[];
  identities: string[];
  count: number;
  example: Interaction & { identity: string };
}

function groupCauses(passes: PassResult[], logged: Map<string, LoggedError>): Cause[] {
  const causes = new Map<string, Cause>();
  for (const p of passes) {
    for (const x of p.serverErrors) {
      const log = x.requestId ? logged.get(x.requestId) : undefined;
      const error = log
        ? `${log.type ? log.type + ': ' : ''}${log.message}`
        : `(not in the server log) ${x.responseBody.slice(0, 200)}`;
      const key = `${x.status}|${x.endpoint}|${normalise(error)}|${log?.frame ?? ''}`;
      let c = causes.get(key);
      if (!c)
        causes.set(
          key,
          (c = {
            status: x.status,
            error,
            frame: log?.frame ?? '',
            endpoints: [x.endpoint],
            identities: [],
            count: 0,
            example: { ...x, identity: p.identity },
          }),
        );
      c.count++;
      if (!c.identities.includes(p.identity)) c.identities.push(p.identity);
      // Keep the shortest reproduction.
      const size = (i: Interaction) => i.uri.length + (i.requestBody?.length ?? 0);
      if (size(x) < size(c.example)) c.example = { ...x, identity: p.identity };
    }
  }
  return [...causes.values()].sort((a, b) => a.endpoints[0].localeCompare(b.endpoints[0]) || b.count - a.count);
}

function curl(x: Interaction): string {
  const body =
    x.requestBody && x.requestBody !== ''
      ? ` -H 'Content-Type: application/json' --data-raw ${JSON.stringify(x.requestBody)}`
      : '';
  return `curl -X ${x.method} '${x.uri.replace(/^https?:\/\/[^/]+/, '$BASE')}' -H "Authorization: Bearer $TOKEN"${body}`;
}

// ---------------------------------------------------------------------------------------------
// Reports

function markdown(passes: PassResult[], causes: Cause[], meta: Record<string, unknown>): string {
  const out: string[] = [];
  out.push(`# Fuzz run ${meta.startedAt}`, '');
  out.push('```json', JSON.stringify(meta, null, 2), '```', '');
  out.push(
    '| identity | operations tested | test cases | cases with failures | 5xx responses | seconds |',
    '|---|---|---|---|---|---|',
  );
  for (const p of passes)
    out.push(
      `| ${p.identity} | ${p.operations.tested}/${p.operations.total} | ${p.cases.generated} | ${p.cases.withFailures} | ${p.serverErrors.length} | ${p.seconds.toFixed(0)} |`,
    );
  out.push('');
  for (const p of passes) {
    out.push(`## ${p.identity} — failures by check`, '');
    if (p.identityRestores)
      out.push(
        `The pass deleted or deactivated a fuzzing identity; the guardian restored it ${p.identityRestores}×.`,
        '',
      );
    if (p.identityLost)
      out.push('**The identity lost its access during this pass (token no longer accepted afterwards).**', '');
    for (const e of p.errors) out.push(`* **error**: ${e}`);
    for (const e of p.toolErrors) out.push(`* schemathesis error (tool, not server): ${e}`);
    for (const [check, g] of Object.entries(p.failuresByCheck).sort((a, b) => b[1].count - a[1].count)) {
      out.push(
        `* \`${check}\`: ${g.count} failing cases on ${g.endpoints.length} endpoints — ${g.endpoints.join(', ')}`,
      );
    }
    out.push('');
  }
  out.push(`## Distinct server errors (${causes.length})`, '');
  for (const c of causes) {
    out.push(`### ${c.status} ${c.endpoints.join(', ')}`, '');
    out.push(`* error: \`${c.error.slice(0, 400)}\``);
    if (c.frame) out.push(`* at: \`${c.frame}\``);
    out.push(`* seen ${c.count}× as ${c.identities.join(', ')}`);
    out.push(`* reproduce (as ${c.example.identity}): \`${curl(c.example)}\``);
    out.push('');
  }
  out.push('## Other check failures by endpoint (one example each)', '');
  const seen = new Set<string>();
  for (const p of passes) {
    for (const f of p.checkFailures) {
      if (f.check === 'not_a_server_error') continue;
      const key = `${f.check}|${f.endpoint}|${f.status}`;
      if (seen.has(key)) continue;
      seen.add(key);
      out.push(
        `* \`${f.check}\` ${f.endpoint} → ${f.status} (${p.identity}): ${f.title}${f.message ? ' — ' + f.message.replace(/\n+/g, ' ').slice(0, 200) : ''}; e.g. \`${f.method} ${f.uri.replace(/^https?:\/\/[^/]+/, '')}\`${f.requestBody ? ` body \`${f.requestBody.slice(0, 160)}\`` : ''} answered \`${f.responseBody.slice(0, 200)}\``,
      );
    }
  }
  return out.join('\n') + '\n';
}

// ---------------------------------------------------------------------------------------------

const t0 = performance.now();
mkdirSync(options.outDir, { recursive: true });
console.log(
  `fuzz: ${quick ? 'bounded (--quick)' : 'full'} run; identities ${options.identities.join(', ')}; max ${options.maxExamples} examples per operation; checks ${options.checks}${options.excludeChecks ? ` minus ${options.excludeChecks}` : ''}; reports in ${path.relative(root, options.outDir)}`,
);
const st = await findSchemathesis();
const logFile = path.join(options.outDir, 'stack.log');
const stack = await startFuzzStack(logFile);
let interrupted = false;
const stopOnSignal = () => {
  interrupted = true;
  void stack.stop().finally(() => process.exit(130));
};
process.once('SIGTERM', stopOnSignal);
process.once('SIGINT', stopOnSignal);
const startupSeconds = (performance.now() - t0) / 1000;
console.log(
  `fuzz: stack up at ${stack.info.baseUrl} after ${startupSeconds.toFixed(0)} s (server log: ${path.relative(root, logFile)})`,
);

const passes: PassResult[] = [];
try {
  for (const who of options.identities) {
    if (interrupted) break;
    let p: PassResult;
    try {
      await reseed(stack.info.databaseUrl);
      await fixtures(stack.info.baseUrl, stack.info.databaseUrl, who);
      p = await runPass(st, stack.info.baseUrl, stack.info.databaseUrl, who);
    } catch (err) {
      p = emptyPass(who, path.join(options.outDir, who));
      p.errors.push(`the pass could not run: ${(err as Error).message}`);
      p.exitCode = -1;
    }
    passes.push(p);
    console.log(
      `fuzz: ${who}: ${p.operations.tested}/${p.operations.total} operations, ${p.cases.generated} test cases, ${p.cases.withFailures} with failures, ${p.serverErrors.length} 5xx responses, ${p.seconds.toFixed(0)} s`,
    );
    for (const [check, g] of Object.entries(p.failuresByCheck).sort((a, b) => b[1].count - a[1].count)) {
      console.log(
        `        ${check.padEnd(30)} ${String(g.count).padStart(5)} failing cases on ${g.endpoints.length} endpoint(s)`,
      );
    }
    for (const e of p.errors) console.log(`        ERROR ${e}`);
    for (const e of p.toolErrors) console.log(`        schemathesis error (a tool error, not a server response): ${e}`);
    if (p.identityRestores)
      console.log(
        `        note: the pass deleted or deactivated a fuzzing identity; restored ${p.identityRestores}× (see docs/fuzz.md)`,
      );
    if (p.identityLost)
      console.log(`        WARNING: ${who}'s token no longer works after the pass; later requests may have seen 401s`);
  }
} finally {
  await stack.stop();
}

const logged = serverLogErrors(logFile);
const causes = groupCauses(passes, logged);
const totalSeconds = (performance.now() - t0) / 1000;
const meta = {
  startedAt: new Date(Date.now() - totalSeconds * 1000).toISOString(),
  mode: quick ? 'quick' : 'full',
  schemathesis: SCHEMATHESIS_VERSION,
  identities: options.identities,
  maxExamples: options.maxExamples,
  seconds: options.seconds ?? null,
  checks: options.checks,
  excludeChecks: options.excludeChecks || null,
  phases: options.phases || 'all',
  workers: options.workers,
  extraArgs: passThrough,
  stackStartupSeconds: Math.round(startupSeconds),
  totalSeconds: Math.round(totalSeconds),
};
const summary = {
  meta,
  passes: passes.map(({ serverErrors, checkFailures, ...p }) => ({
    ...p,
    serverErrors: serverErrors.length,
    checkFailures: checkFailures.length,
  })),
  serverErrorCauses: causes,
};
writeFileSync(path.join(options.outDir, 'summary.json'), JSON.stringify(summary, null, 2));
writeFileSync(path.join(options.outDir, 'summary.md'), markdown(passes, causes, meta));

console.log(
  `\nfuzz: ${causes.length} distinct server error(s) in ${totalSeconds.toFixed(0)} s (stack start-up ${startupSeconds.toFixed(0)} s)`,
);
for (const c of causes) {
  console.log(
    `  ${c.status} ${c.endpoints.join(', ')} ×${c.count} [${c.identities.join(',')}]\n      ${c.error.slice(0, 200)}${c.frame ? `\n      ${c.frame}` : ''}\n      ${curl(c.example).slice(0, 400)}`,
  );
}
console.log(`fuzz: summary in ${path.relative(root, path.join(options.outDir, 'summary.md'))} and summary.json`);

const failed = verdict(passes, options, causes.length);
if (failed.length) {
  console.error(`\nfuzz: FAILED — ${failed.join('; ')}`);
  process.exit(1);
}
console.log(
  `\nfuzz: passed — no server errors${options.contract ? `, no failure of ${CONTRACT_CHECKS.join(', ')}` : ''}`,
);
