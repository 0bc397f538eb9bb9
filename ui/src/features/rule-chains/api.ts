// The rule engine's API (RULE_ENGINE_PREFIX + /api/v1, docs/rule-chains.md): RuleGo-Server's shapes on
// success (a list page, the raw DSL, the output data), our envelope plus `error` on failure. It is not
// in the typed client (its answers are not the envelope), so a small fetch here carries the session's
// token and language the way lib/api.ts does for every other call.
import type { ComponentForm, ChainSummary, ComponentList, RunDetail, RunSummary } from './types';
import type { RuleChainDsl } from '@chains/types.js';
import { locale } from '../../i18n';
import { ApiError } from '../../lib/api';
import { t } from './i18n';
import { session } from '../../lib/session';

// The server names its RULE_ENGINE_PREFIX in the page (src/http/ui-static.ts); /rulego by default.
export const PREFIX = `${document.querySelector<HTMLMetaElement>('meta[name="app-rule-engine-prefix"]')?.content || '/rulego'}/api/v1`;

interface ListPage<T> {
  total: number;
  page: number;
  size: number;
  items: T[];
}

/** An answer of the rule engine: its status, headers and body (JSON when it is JSON, else the text). */
interface Answer {
  status: number;
  headers: Headers;
  body: any;
}

async function send(method: string, path: string, body?: unknown): Promise<Answer> {
  // An answer for a session that ended must reach no page (lib/api.ts): it never settles.
  if (session.ended) return new Promise<Answer>(() => {});
  const token = session.get()?.token;
  const headers: Record<string, string> = { 'Accept-Language': locale };
  if (token) headers.Authorization = `Bearer ${token}`;
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  let res: Response;
  try {
    res = await fetch(`${PREFIX}${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
  } catch {
    throw new ApiError(0, 0, t.errors.network, null);
  }
  if (session.ended || (token && token !== session.get()?.token)) return new Promise<Answer>(() => {});
  if (res.status === 401 && token) session.expire();
  const text = await res.text();
  let parsed: any = text;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    /* a text answer (a TEXT message's data) */
  }
  return { status: res.status, headers: res.headers, body: parsed };
}

/** The answer's body when it succeeded; else an ApiError from the envelope (`{code, message, data, error}`). */
function ok<T>(a: Answer): T {
  if (a.status >= 200 && a.status < 300) return a.body as T;
  const b = a.body && typeof a.body === 'object' ? a.body : {};
  throw new ApiError(a.status, b.code ?? 0, b.message ?? b.error ?? `HTTP ${a.status}`, b.data ?? null);
}

const q = (params: Record<string, string | number | boolean | undefined>) => {
  const s = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== '') s.set(k, String(v));
  const text = s.toString();
  return text ? `?${text}` : '';
};
const enc = encodeURIComponent;

export interface ChainFilter {
  keywords: string;
  /** '' any, 'started', 'stopped' (RuleGo's `disabled` filter). */
  state: '' | 'started' | 'stopped';
}

export const listChains = async (f: ChainFilter, page: number, size: number) =>
  ok<ListPage<ChainSummary>>(
    await send(
      'GET',
      `/rules${q({ keywords: f.keywords.trim(), disabled: f.state === '' ? undefined : f.state === 'stopped', page, size })}`,
    ),
  );

export const loadChain = async (id: string) => ok<RuleChainDsl>(await send('GET', `/rules/${enc(id)}`));

/** Saves a new version and deploys it; a 422 carries `data.problems` (see problemsOf). */
export const saveChain = async (id: string, dsl: RuleChainDsl) =>
  ok<unknown>(await send('POST', `/rules/${enc(id)}`, dsl));

export const deleteChain = async (id: string) => ok<unknown>(await send('DELETE', `/rules/${enc(id)}`));

export const operateChain = async (id: string, op: 'start' | 'stop') =>
  ok<unknown>(await send('POST', `/rules/${enc(id)}/operate/${op}`));

export const loadComponents = async () => {
  const list = ok<Partial<ComponentList>>(await send('GET', '/components'));
  return { endpoints: list.endpoints ?? [], nodes: list.nodes ?? [] } satisfies ComponentList;
};

export interface ExecuteOutcome {
  ok: boolean;
  status: number;
  runId: string | null;
  /** The output message's data (parsed when JSON), or the error's words. */
  output: unknown;
  error: ApiError | null;
}

/** Runs the chain synchronously with `data` as the message's data; a failed run still names its run id. */
export async function executeChain(id: string, msgType: string, data: string): Promise<ExecuteOutcome> {
  const a = await send('POST', `/rules/${enc(id)}/execute/${enc(msgType)}`, data);
  if (a.status >= 200 && a.status < 300)
    return { ok: true, status: a.status, runId: a.headers.get('X-Run-Id'), output: a.body, error: null };
  try {
    ok(a);
  } catch (err) {
    const error = err as ApiError;
    const runId = a.headers.get('X-Run-Id') ?? (typeof error.data?.runId === 'string' ? error.data.runId : null);
    return { ok: false, status: a.status, runId, output: null, error };
  }
  return { ok: false, status: a.status, runId: null, output: a.body, error: null };
}

export const listRuns = async (chainId: string, page: number, size: number) =>
  ok<ListPage<RunSummary>>(await send('GET', `/logs/runs${q({ chainId, page, size })}`));

export const loadRun = async (id: string) => ok<RunDetail>(await send('GET', `/logs/runs/${enc(id)}`));

export type { ComponentForm };
