import { whoAmI } from '../../services/auth.js';
import { setOwnLocale } from '../../services/directory.js';
import { getPreferences, putPreferences } from '../../notifications/preferences.js';
import { createRouter, endpoint } from '../router.js';
import { em } from '../middleware/auth.js';
import { Me } from './auth.js';
import * as s from './me.schemas.js';

const tags = ['me'];

/** `/api/v1/me` — what any signed-in user may change about themselves: their language and notification preferences. */
export function meRoutes() {
  const r = createRouter();
  endpoint(
    r,
    {
      method: 'patch',
      path: '/',
      tags,
      summary: 'Set your own language (the only field of your directory entry you may change yourself)',
      body: s.MePatch,
      response: Me,
    },
    async ({ principal, body, c }) => {
      await setOwnLocale(em(c), principal.tenantId, principal.userId, body.locale);
      return whoAmI(em(c), principal);
    },
  );
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
