// "My settings" talks to the caller's own resources only: PATCH /api/v1/me (language) and
// GET/PUT /api/v1/me/notification-preferences.
import { api, call, type Schemas } from '../../lib/api';

export type Preferences = Schemas['NotificationPreferences'];
export type PreferencesBody = Schemas['NotificationPreferencesBody'];

export const loadMe = () => call(api.GET('/api/v1/auth/me'));

export const saveLocale = (locale: 'en' | 'zh-CN' | null) => call(api.PATCH('/api/v1/me', { body: { locale } }));

export const loadPreferences = () => call(api.GET('/api/v1/me/notification-preferences'));

export const savePreferences = (body: PreferencesBody) =>
  call(api.PUT('/api/v1/me/notification-preferences', { body }));
