// The login session: the access token (kept in localStorage until it expires, so a reload keeps
// you logged in), who you are, and which admin areas the API lets you into.
import { Store } from './store';

export interface Session {
  token: string;
  userId: string;
  tenantId: string;
  username: string;
  exp: number; // seconds since epoch
  can: { definitionsWrite: boolean; monitor: boolean; directory: boolean; admin: boolean };
}

const KEY = 'approval-center.session';

function decode(token: string): { sub: string; tid: string; exp: number } | null {
  try {
    const part = token.split('.')[1]!.replace(/-/g, '+').replace(/_/g, '/');
    return JSON.parse(atob(part.padEnd(part.length + ((4 - (part.length % 4)) % 4), '=')));
  } catch {
    return null;
  }
}

function load(): Session | null {
  try {
    const s = JSON.parse(localStorage.getItem(KEY) ?? 'null') as Session | null;
    if (s && s.exp * 1000 > Date.now()) return s;
  } catch {
    /* unreadable: log in again */
  }
  localStorage.removeItem(KEY);
  return null;
}

class SessionStore extends Store<Session | null> {
  expired = false;
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor() {
    super(load());
    this.schedule();
  }

  open(token: string, username: string, can: Session['can']) {
    const claims = decode(token);
    if (!claims) throw new Error('unreadable token');
    const s: Session = { token, userId: claims.sub, tenantId: claims.tid, username, exp: claims.exp, can };
    localStorage.setItem(KEY, JSON.stringify(s));
    this.expired = false;
    this.set(s);
    this.schedule();
  }

  /** Changes fields of the open session (e.g. `can` after a role change). */
  update(fields: Partial<Pick<Session, 'can'>>) {
    const s = this.get();
    if (!s) return;
    const next = { ...s, ...fields };
    localStorage.setItem(KEY, JSON.stringify(next));
    this.set(next);
  }

  claimsOf(token: string) {
    return decode(token);
  }

  close() {
    localStorage.removeItem(KEY);
    this.set(null);
  }

  expire() {
    if (!this.get()) return;
    this.expired = true;
    this.close();
  }

  private schedule() {
    clearTimeout(this.timer);
    const s = this.get();
    if (s) this.timer = setTimeout(() => this.expire(), Math.max(0, s.exp * 1000 - Date.now()));
  }
}

export const session = new SessionStore();
