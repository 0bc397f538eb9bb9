// The people picker's server answer time (issue 46): tenants of 20,000 and 100,000 users seeded
// through the directory API (POST /departments, POST /users/batch), then GET /users?q=… for typical
// queries — pinyin, initials, prefix, contains, Chinese characters — timed around fetch on loopback
// (so it includes HTTP and JSON: an upper bound of the server's time). Target: p95 ≤ 150 ms.
// Run from `npm run bench:ui`, or alone: `BENCH_UI_ONLY=people npm run bench:ui`.
// The name generator is also the integration test's (test/integration/people-search.test.ts).
import { pinyin } from 'pinyin-pro';

export const PEOPLE_P95_BUDGET_MS = 150;

const SURNAMES =
  '王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗郑梁谢宋唐许韩冯邓曹彭曾肖田董袁潘于蒋蔡余杜叶程苏魏吕丁任沈姚卢姜崔钟谭陆汪范金石廖贾夏韦付方白邹孟熊秦邱江尹薛闫段雷侯龙史陶黎贺顾毛郝龚邵万钱严覃武戴莫孔向汤';
const GIVEN = '伟芳娜秀英敏静丽强磊军洋勇艳杰娟涛明超兰霞平刚桂华玉萍红建国文辉鹏飞婷宇浩然子涵欣怡梓轩一诺晨曦远嘉';
const FIRST = ['james', 'mary', 'john', 'patricia', 'robert', 'jennifer', 'michael', 'linda', 'william', 'olivia'];
const FIRST_MORE = ['david', 'barbara', 'richard', 'susan', 'joseph', 'jessica', 'thomas', 'sarah', 'noah', 'emma'];
const LAST = ['smith', 'johnson', 'williams', 'brown', 'jones', 'garcia', 'miller', 'davis', 'wilson', 'anderson'];
const LAST_MORE = ['taylor', 'moore', 'jackson', 'martin', 'lee', 'thompson', 'white', 'harris', 'clark', 'lewis'];
const DEPARTMENTS = ['研发', '市场', '财务', '人力资源', '法务', '采购', '销售', '客服', '运营', '质量'];

const capital = (s: string) => s[0]!.toUpperCase() + s.slice(1);
/** A fixed pseudo-random number of `i` (the same people every run). */
const mix = (i: number, salt: number) => {
  let x = (i + 1) * 2654435761 + salt * 40503;
  x = Math.imul(x ^ (x >>> 16), 0x45d9f3b);
  x = Math.imul(x ^ (x >>> 16), 0x45d9f3b);
  return (x ^ (x >>> 16)) >>> 0;
};
const pick = <T>(list: ArrayLike<T>, i: number, salt: number) => list[mix(i, salt) % list.length]!;

export interface Person {
  username: string;
  displayName: string;
  email: string;
  /** Index into departmentNames(n). */
  dept: number;
}

/** `count` department names: 研发1部 …, Chinese so that they are found by pinyin too. */
export const departmentNames = (count: number) =>
  Array.from(
    { length: count },
    (_, i) => `${DEPARTMENTS[i % DEPARTMENTS.length]}${Math.floor(i / DEPARTMENTS.length) + 1}部`,
  );

/**
 * Person `i` of a big tenant: three in five Chinese (surname and one or two given characters), the
 * others "First Last". Never 张三, "erin" or a name whose initials are zs: the tests add those and
 * expect them first.
 */
export function personAt(i: number, departments: number): Person {
  const username = `p${String(i).padStart(6, '0')}`;
  let displayName: string;
  if (mix(i, 1) % 5 < 3) {
    displayName = pick(SURNAMES, i, 2) + pick(GIVEN, i, 3) + (mix(i, 4) % 2 ? pick(GIVEN, i, 5) : '');
    // The initials zs are 张三's in the tests: another two-character zs would tie with it.
    if (pinyin(displayName, { pattern: 'first', toneType: 'none', type: 'array' }).join('') === 'zs')
      displayName = `${displayName}${pick(GIVEN, i, 6)}`;
  } else {
    displayName = `${capital(pick([...FIRST, ...FIRST_MORE], i, 7))} ${capital(pick([...LAST, ...LAST_MORE], i, 8))}`;
  }
  return { username, displayName, email: `${username}@corp.example`, dept: mix(i, 9) % departments };
}

/** The queries a picker sends, by kind. */
export const TYPICAL_QUERIES: Record<string, string[]> = {
  pinyin: ['zhangwei', 'liuyang', 'wangfang', 'chenjie', 'zhao min'],
  initials: ['zw', 'ly', 'wf', 'cj'],
  prefix: ['zhang', 'wang', 'james', 'p01234', '李'],
  contains: ['ying', 'son', 'liam', 'hua'],
  chinese: ['张伟', '王芳', '刘洋'],
};

interface Seeded {
  tenantId: string;
  token: string;
  seedMs: number;
}

async function call(baseUrl: string, path: string, token: string | undefined, body?: unknown) {
  const res = await fetch(`${baseUrl}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: {
      ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
      ...(token ? { Authorization: `Bearer ${token}` } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = (await res.json()) as { data: any };
  if (res.status >= 300) throw new Error(`${path}: ${res.status} ${JSON.stringify(json)}`);
  return json.data;
}

/** A tenant of `users` people in `users / 500` departments, through the API (1,000 users a call). */
export async function seedPeople(
  baseUrl: string,
  systemToken: string,
  tenantId: string,
  users: number,
): Promise<Seeded> {
  const started = performance.now();
  await call(baseUrl, '/api/v1/tenants', systemToken, {
    id: tenantId,
    name: tenantId,
    admin: { username: 'admin', password: 'bench-admin' },
  });
  const token = (
    await call(baseUrl, '/api/v1/auth/login', undefined, { username: 'admin', password: 'bench-admin', tenantId })
  ).accessToken as string;
  const names = departmentNames(Math.max(1, Math.round(users / 500)));
  for (const [i, name] of names.entries()) await call(baseUrl, '/api/v1/departments', token, { id: `d${i}`, name });
  for (let from = 0; from < users; from += 1000) {
    const batch = [];
    for (let i = from; i < Math.min(users, from + 1000); i++) {
      const p = personAt(i, names.length);
      batch.push({
        id: p.username,
        username: p.username,
        displayName: p.displayName,
        email: p.email,
        deptId: `d${p.dept}`,
        password: 'initial-pw',
      });
    }
    await call(baseUrl, '/api/v1/users/batch', token, { users: batch });
  }
  return { tenantId, token, seedMs: Math.round(performance.now() - started) };
}

const quantile = (sorted: number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!;

/** p50 and p95 (ms) of GET /users?q=… over the typical queries, `rounds` times each (after one warm-up round). */
export async function searchTimes(baseUrl: string, token: string, rounds: number) {
  const get = async (q: string) => {
    const t = performance.now();
    const res = await fetch(`${baseUrl}/api/v1/users?q=${encodeURIComponent(q)}&pageSize=20`, {
      headers: { Authorization: `Bearer ${token}` },
    });
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`q=${q}: ${res.status}`);
    return performance.now() - t;
  };
  const all = Object.values(TYPICAL_QUERIES).flat();
  for (const q of all) await get(q);
  const byKind: Record<string, number[]> = {};
  const times: number[] = [];
  for (let r = 0; r < rounds; r++)
    for (const [kind, queries] of Object.entries(TYPICAL_QUERIES))
      for (const q of queries) {
        const ms = await get(q);
        times.push(ms);
        (byKind[kind] ??= []).push(ms);
      }
  const sorted = times.sort((a, b) => a - b);
  const kinds = Object.fromEntries(
    Object.entries(byKind).map(([k, v]) => [
      k,
      Math.round(
        quantile(
          v.sort((a, b) => a - b),
          0.95,
        ),
      ),
    ]),
  );
  return { p50: Math.round(quantile(sorted, 0.5)), p95: Math.round(quantile(sorted, 0.95)), n: times.length, kinds };
}

/** Seeds 20,000- and 100,000-user tenants and times the picker's search in each; lines to print and whether met. */
export async function peopleFigures(baseUrl: string, systemToken: string) {
  const rounds = Number(process.env.BENCH_PEOPLE_ROUNDS ?? 10);
  const sizes = (process.env.BENCH_PEOPLE_SIZES ?? '20000,100000').split(',').map(Number);
  const lines: string[] = [];
  let ok = true;
  for (const size of sizes) {
    const seeded = await seedPeople(baseUrl, systemToken, `bench-people-${size}-${Date.now().toString(36)}`, size);
    const t = await searchTimes(baseUrl, seeded.token, rounds);
    const met = t.p95 <= PEOPLE_P95_BUDGET_MS;
    ok &&= met;
    const kinds = Object.entries(t.kinds)
      .map(([k, v]) => `${k} ${v}`)
      .join(', ');
    lines.push(
      `  picker search ${String(size).padStart(6)}  p50 ${t.p50} ms, p95 ${t.p95} ms of ${t.n} (p95 by kind: ${kinds}); seeded by the batch API in ${(seeded.seedMs / 1000).toFixed(1)} s   budget p95 ${PEOPLE_P95_BUDGET_MS} ms   ${met ? 'ok' : 'OVER'}`,
    );
  }
  return { lines, ok };
}
