// The login session: the access token (kept in localStorage until it expires, so a reload keeps
// you logged in), who you are, and which admin areas the API lets you into.
//
// Everything else the console holds (directory and badge caches, stores, the notification
// socket, pending requests, form state) lives in the page's memory and belongs to the session
// that loaded it. Ending a session therefore loads the page again: a logout, an expired or
// refused token, and another tab logging out or in as someone else all start the next session
// from a fresh document, so nothing of the previous one can be shown to the next person
// (docs/console.md "Sessions").
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
/** Set in sessionStorage just before the reload that follows an expiry, read once by the login form. */
const EXPIRED_KEY = 'approval-center.expired';

function decode(token: string): { sub: string; tid: string; exp: number } | null {
  try {
    const part = token.split('.')[1]!.replace(/-/g, '+').replace(/_/g, '/');
    return JSON.parse(atob(part.padEnd(part.length + ((4 - (part.length % 4)) % 4), '=')));
  } catch {
    return null;
  }
}

function stored(): Session | null {
  try {
    const s = JSON.parse(localStorage.getItem(KEY) ?? 'null') as Session | null;
    if (s && s.exp * 1000 > Date.now()) return s;
  } catch {
    /* unreadable: log in again */
  }
  return null;
}

function load(): Session | null {
  const s = stored();
  if (!s) localStorage.removeItem(KEY);
  return s;
}

function takeExpiredMark(): boolean {
  const marked = sessionStorage.getItem(EXPIRED_KEY) === '1';
  sessionStorage.removeItem(EXPIRED_KEY);
  return marked;
}

class SessionStore extends Store<Session | null> {
  /** The previous session of this tab ended because its token expired (the login form says so). */
  readonly expired = takeExpiredMark();
  /** Set once the session has ended: the page is being replaced, nothing may act for it any more. */
  ended = false;
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor() {
    super(load());
    this.schedule();
    // Another tab logged out, or logged in as someone else: this page belongs to a session that is over.
    window.addEventListener('storage', (e) => {
      if (e.key === KEY || e.key === null) this.followStorage();
    });
    // A page restored from the back/forward cache kept its memory: drop it if the session changed meanwhile.
    window.addEventListener('pageshow', (e) => {
      if (e.persisted) this.followStorage();
    });
  }

  open(token: string, username: string, can: Session['can']) {
    const claims = decode(token);
    if (!claims) throw new Error('unreadable token');
    const s: Session = { token, userId: claims.sub, tenantId: claims.tid, username, exp: claims.exp, can };
    localStorage.setItem(KEY, JSON.stringify(s));
    this.set(s);
    this.schedule();
  }

  /** Changes fields of the open session (e.g. `can` after a role change). */
  update(fields: Partial<Pick<Session, 'can'>>) {
    const s = this.get();
    if (!s || this.ended) return;
    const next = { ...s, ...fields };
    localStorage.setItem(KEY, JSON.stringify(next));
    this.set(next);
  }

  claimsOf(token: string) {
    return decode(token);
  }

  /** Log out: forget the token and start over at `/` in a fresh page. */
  close() {
    this.end();
    window.location.replace('/');
  }

  /** The token expired or was refused: the same page again, in a fresh document, with the login form saying why. */
  expire() {
    if (this.ended || !this.get()) return;
    sessionStorage.setItem(EXPIRED_KEY, '1');
    this.end();
    window.location.reload();
  }

  /** True when `token` is the open session's: answers to requests sent with another token are dropped. */
  owns(token: string | null | undefined): boolean {
    return !this.ended && !!token && token === this.get()?.token;
  }

  private end() {
    this.ended = true;
    clearTimeout(this.timer);
    // Only this session's token: another tab may already have stored the next one.
    if (stored()?.token === this.get()?.token) localStorage.removeItem(KEY);
  }

  private followStorage() {
    if (this.ended) return;
    const now = stored();
    if ((now?.token ?? null) === (this.get()?.token ?? null)) return;
    this.ended = true;
    clearTimeout(this.timer);
    window.location.reload();
  }

  private schedule() {
    clearTimeout(this.timer);
    const s = this.get();
    // setTimeout's delay is a 32-bit signed number of ms; a longer wait would fire at once.
    if (s) this.timer = setTimeout(() => this.expire(), Math.min(2 ** 31 - 1, Math.max(0, s.exp * 1000 - Date.now())));
  }
}

export const session = new SessionStore();
