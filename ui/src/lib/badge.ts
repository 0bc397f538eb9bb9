// The to-do badge: the same number as the inbox's To do list (GET /workflow/tasks/statistics `todo`,
// which already holds the pools I may claim: `claimable` is its pool part, not more work; docs/monitoring.md),
// refreshed on every notification and after my own actions.
import { api, call } from './api';
import { onNotification } from './live';
import { session } from './session';
import { Store, firstContent } from './store';

export const badge = new Store<number | null>(null);

export async function refreshBadge() {
  if (!session.get()) return badge.set(null);
  try {
    const s = await call(api.GET('/api/v1/workflow/tasks/statistics'));
    badge.set(s.todo ?? 0);
  } catch {
    /* keeps the last count */
  }
}

onNotification(() => void refreshBadge());
session.subscribe((s) => (s ? void refreshBadge() : badge.set(null)));
void firstContent.then(() => refreshBadge());
