// The typed API client: openapi-fetch over the types generated from /openapi.json
// (src/api/schema.d.ts, `npm run ui:api`). Every answer is the envelope {code, data, message};
// `call` unwraps it or throws an ApiError whose text is words, never a bare code.
import createClient from 'openapi-fetch';
import { locale, t } from '../i18n';
import type { paths, components } from '../api/schema';
import { session } from './session';

export type Schemas = components['schemas'];
export type Task = Schemas['Task'];
export type Instance = Schemas['Instance'];
export type TrailEntry = Schemas['TrailEntry'];
export type Definition = Schemas['ProcessDefinition'];

export const api = createClient<paths>({ baseUrl: '' });

/** Thrown for an answer that arrives after its session ended: it must not reach the next session's page. */
export class StaleSessionError extends Error {}

api.use({
  onRequest({ request }) {
    if (session.ended) throw new StaleSessionError('the session has ended');
    const token = session.get()?.token;
    if (token) request.headers.set('Authorization', `Bearer ${token}`);
    // The API's messages (errors, field errors, validation problems) in the console's language.
    request.headers.set('Accept-Language', locale);
    return request;
  },
  onResponse({ response, request }) {
    // Before a login there is no session to protect (the login and its /auth/me); after one, only
    // the open session's own answers count.
    if (session.ended) throw new StaleSessionError('answer for a session that has ended');
    const current = session.get()?.token;
    if (!current) return response;
    if (request.headers.get('Authorization') !== `Bearer ${current}`)
      throw new StaleSessionError('answer for another session');
    if (response.status === 401) session.expire();
    return response;
  },
});

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: number,
    readonly apiMessage: string,
    readonly data: any,
  ) {
    super(describe(code, apiMessage, data));
  }
}

/** A sentence for an error answer: the catalogue's words for the code plus the API's own details. */
function describe(code: number, apiMessage: string, data: any): string {
  const words = t.errors.byCode[code];
  const parts: string[] = [];
  if (words) parts.push(words);
  if (apiMessage && apiMessage !== words) parts.push(apiMessage.replace(/\s*\(code \d+\)/, ''));
  const fields: Array<{ path?: string; message?: string }> = Array.isArray(data?.fields) ? data.fields : [];
  for (const f of fields.slice(0, 5)) parts.push(`${f.path ? `${f.path}: ` : ''}${f.message ?? ''}`);
  if (data?.allowedTarget) parts.push(`Allowed target: ${data.allowedTarget}.`);
  return parts.join(' ') || t.errors.fallback;
}

type Envelope<T> = { code: number; data: T; message: string };
type Answer<T> = { data?: Envelope<T>; error?: unknown; response: Response };

/** Unwraps the envelope of an openapi-fetch answer. */
export async function call<T>(pending: Promise<Answer<T>>): Promise<T> {
  let res: Answer<T>;
  try {
    res = await pending;
  } catch (err) {
    // Neither an answer nor an error of an ended session may reach a page: it never settles
    // (the page is being replaced by a fresh one).
    if (err instanceof StaleSessionError) return new Promise<T>(() => {});
    throw new ApiError(0, 0, t.errors.network, null);
  }
  if (res.data && res.response.ok) return res.data.data;
  const body = (res.error ?? res.data) as Partial<Envelope<any>> | undefined;
  throw new ApiError(
    res.response.status,
    body?.code ?? 0,
    body?.message ?? `HTTP ${res.response.status}`,
    body?.data ?? null,
  );
}

export function errorText(err: unknown): string {
  if (err instanceof ApiError) return err.message;
  if (err instanceof Error) return err.message;
  return t.errors.fallback;
}

/** A page of a collection. */
export interface Page<T> {
  items: T[];
  total: number;
  page: number;
  pageSize: number;
}
