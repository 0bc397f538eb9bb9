import { getPreferences, putPreferences } from './preferences.js';
import { createRouter, endpoint } from '../http/router.js';
import { em } from '../http/middleware/auth.js';
import * as s from './preferences.schemas.js';

const tags = ['me'];

/** `/api/v1/me/notification-preferences` — the caller's own notification preferences. */
export function notificationPreferenceRoutes() {
  const r = createRouter();
  endpoint(
    r,
    {
      method: 'get',
      path: '/notification-preferences',
      tags,
      summary: 'Your notification preferences: kinds per channel, quiet hours, the daily digest',
      response: s.Preferences,
    },
    ({ principal, c }) => getPreferences(em(c), principal.tenantId, principal.userId),
  );
  endpoint(
    r,
    {
      method: 'put',
      path: '/notification-preferences',
      tags,
      summary: 'Replace your notification preferences; messages held for quiet hours are decided again at once',
      body: s.PreferencesBody,
      response: s.Preferences,
    },
    ({ principal, body, c }) => putPreferences(em(c), principal.tenantId, principal.userId, body),
  );
  return r;
}
