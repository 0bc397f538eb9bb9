// The directory as the pickers see it: the server's search of users, roles and departments
// (GET …?q=&page=, ranked there), the names of ids already chosen (a saved definition names ids
// that are on no result page), and each person's recent choices.
import { api, ApiError, call } from '../lib/api';
import { session } from '../lib/session';

export type PeopleKind = 'user' | 'role' | 'dept';

/** One entry of a picker: what it stores (`id`), its name, and what tells two of a name apart. */
export interface Person {
  id: string;
  name: string;
  /** Users: username · department; roles and departments: their key. */
  detail: string;
}

export interface Found {
  items: Person[];
  total: number;
  page: number;
}

export const PAGE_SIZE = 20;

/** The caller may not read the directory: the picker then takes typed ids. */
export const forbidden = (err: unknown) => err instanceof ApiError && (err.status === 401 || err.status === 403);

// Names by kind and id for this page's session (a new session loads a fresh page: lib/session.ts);
// keyed by token anyway, as the transfer picker's directory always was.
const names = new Map<string, Promise<Person | null>>();
const nameKey = (kind: PeopleKind, id: string) => `${session.get()?.token ?? ''}\n${kind}\n${id}`;

function user(u: { id: string; username: string; displayName: string | null }, dept: string | null): Person {
  return {
    id: u.id,
    name: u.displayName || u.username,
    detail: [u.username, dept].filter(Boolean).join(' · '),
  };
}

/** A department's name for a user's line; its id when it cannot be read. */
async function deptName(id: string | null): Promise<string | null> {
  if (!id) return null;
  return (await nameOf('dept', id))?.name ?? id;
}

/** The name of a chosen id: from a result seen on this page, or asked of the API (null: no such record). */
export function nameOf(kind: PeopleKind, id: string): Promise<Person | null> {
  const key = nameKey(kind, id);
  let known = names.get(key);
  if (!known) {
    known = fetchOne(kind, id).catch((err) => {
      if (err instanceof ApiError && err.status === 404) return null;
      // Not readable (or the network): the id stands for itself; ask again next time.
      names.delete(key);
      return { id, name: id, detail: '' };
    });
    names.set(key, known);
  }
  return known;
}

async function fetchOne(kind: PeopleKind, id: string): Promise<Person> {
  if (kind === 'user') {
    const u = await call(api.GET('/api/v1/users/{id}', { params: { path: { id } } }));
    return user(u, await deptName(u.deptId));
  }
  if (kind === 'role') {
    const r = await call(api.GET('/api/v1/roles/{code}', { params: { path: { code: id } } }));
    return { id: r.code, name: r.name || r.code, detail: r.code };
  }
  const d = await call(api.GET('/api/v1/departments/{id}', { params: { path: { id } } }));
  return { id: d.id, name: d.name, detail: d.id };
}

const seen = (p: Person, kind: PeopleKind) => {
  const key = nameKey(kind, p.id);
  if (!names.has(key)) names.set(key, Promise.resolve(p));
  return p;
};

/**
 * One page of the server's answer for `q` (the API ranks: exact, prefix, contains; by name,
 * username, email, department, pinyin and initials). Inactive users are left out: nobody picks them.
 */
export async function search(kind: PeopleKind, q: string, page: number): Promise<Found> {
  const text = q.trim();
  const query = { page, pageSize: PAGE_SIZE, ...(text ? { q: text } : {}) };
  if (kind === 'user') {
    const p = await call(api.GET('/api/v1/users', { params: { query: { ...query, active: 'true' } } }));
    const items = await Promise.all(p.items.map(async (u) => seen(user(u, await deptName(u.deptId)), kind)));
    return { items, total: p.total, page: p.page };
  }
  if (kind === 'role') {
    const p = await call(api.GET('/api/v1/roles', { params: { query } }));
    return {
      items: p.items.map((r) => seen({ id: r.code, name: r.name || r.code, detail: r.code }, kind)),
      total: p.total,
      page: p.page,
    };
  }
  const p = await call(api.GET('/api/v1/departments', { params: { query } }));
  return {
    items: p.items.map((d) => seen({ id: d.id, name: d.name, detail: d.id }, kind)),
    total: p.total,
    page: p.page,
  };
}

// Recent choices: per tenant, person and kind, so one session never offers another's.
const RECENT_MAX = 6;
const recentKey = (kind: PeopleKind) => {
  const s = session.get();
  return `approval-center.recent.${s?.tenantId ?? ''}.${s?.userId ?? ''}.${kind}`;
};

export function recent(kind: PeopleKind): Person[] {
  try {
    const list = JSON.parse(localStorage.getItem(recentKey(kind)) ?? '[]') as Person[];
    return Array.isArray(list) ? list.filter((p) => typeof p?.id === 'string').map((p) => seen(p, kind)) : [];
  } catch {
    return [];
  }
}

export function remember(kind: PeopleKind, p: Person) {
  const list = [p, ...recent(kind).filter((x) => x.id !== p.id)].slice(0, RECENT_MAX);
  try {
    localStorage.setItem(recentKey(kind), JSON.stringify(list));
  } catch {
    /* storage full or blocked: recents are a convenience */
  }
}
