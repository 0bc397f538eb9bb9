import { whoAmI } from './auth.js';
import { setOwnLocale } from './directory.js';
import { createRouter, endpoint } from '../http/router.js';
import { em } from '../http/middleware/auth.js';
import { Me } from './auth.routes.js';
import * as s from './me.schemas.js';

const tags = ['me'];

/** `/api/v1/me` — what any signed-in user may change about themselves: their language (their notification preferences: notifications/preferences.routes.ts). */
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
  return r;
}
