// What the caller may open, from GET /api/v1/auth/me (docs/console.md): asked at login and again
// after each reload, so a role changed meanwhile shows or hides the admin pages.
import { adoptTenantLocale, adoptUserLocale } from '../i18n';
import { api, call } from './api';
import { session, type Session } from './session';

/** The admin areas `token` opens (the API's `can`), and the display name. */
export async function accessOf(token: string): Promise<{ can: Session['can']; displayName: string }> {
  const me = await call(api.GET('/api/v1/auth/me', { headers: { Authorization: `Bearer ${token}` } }));
  // The user's language, when the directory keeps one, wins (i18n/locale.ts): it reloads the page once.
  adoptUserLocale(me.user.locale);
  // The tenant's default: the last choice, when neither a stored choice nor the browser decides.
  adoptTenantLocale(me.tenant.defaultLocale);
  return { can: me.can, displayName: me.user.displayName };
}

/** Re-reads the current session's access; a failure keeps what the session has. */
export async function refreshAccess() {
  const s = session.get();
  if (!s) return;
  try {
    const { can } = await accessOf(s.token);
    session.update({ can });
  } catch {
    /* offline or expired: the session store handles expiry */
  }
}
