// What an AI pre-review said, for the next approver: the latest `ai_review` trail entry of each
// aiAgent node, in the reader's language (the trail holds only codes and the model's summary).
import { t } from '../../i18n';
import { aiReviewWords } from '../../i18n/en';
import type { TrailEntry } from '../../lib/api';

type Review = { verdict: string; summary?: string; error?: string; by?: string };

/** The words of one review: "AI pre-review: passed — …". */
export function aiReviewText(detail: Record<string, unknown> | null | undefined): string | null {
  const d = (detail ?? {}) as Review & { agentId?: string };
  if (!t.aiReview.verdict[d.verdict]) return null;
  return aiReviewWords(t.aiReview, { ...d, agentId: d.agentId ?? '' });
}

export function AiReviewNote({ trail, nameOf }: { trail: TrailEntry[]; nameOf: (id: string) => string }) {
  const latest = new Map<string, TrailEntry>();
  for (const e of trail) if (e.type === 'ai_review' && e.activityId) latest.set(e.activityId, e);
  if (!latest.size) return null;
  return (
    <section class="card" aria-label={t.aiReview.title} data-testid="ai-review">
      {[...latest.values()].map((e) => (
        <p data-verdict={String((e.detail as Review | null)?.verdict ?? '')}>
          <strong>{aiReviewText(e.detail)}</strong>
          <span class="muted"> · {nameOf(e.activityId!)}</span>
        </p>
      ))}
    </section>
  );
}
