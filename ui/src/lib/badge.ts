// The to-do badge: open tasks assigned to me plus pool tasks I may claim
// (GET /workflow/tasks/statistics), refreshed on every notification and after my own actions.
import { api, call } from './api';
import { onNotification } from './live';
import { session } from './session';
import { Store, firstContent } from './store';

export const badge = new Store<number | null>(null);

export async function refreshBadge() {
  if (!session.get()) return badge.set(null);
  try {
    const s = await call(api.GET('/api/v1/workflow/tasks/statistics'));
    badge.set((s.todo ?? 0) + (s.claimable ?? 0));
  } catch {
    /* keeps the last count */
  }
}

onNotification(() => void refreshBadge());
session.subscribe((s) => (s ? void refreshBadge() : badge.set(null)));
void firstContent.then(() => refreshBadge());
