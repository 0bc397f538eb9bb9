// What an AI pre-review said, for the next approver: the latest `ai_review` trail entry of each
// aiAgent node, in the reader's language (the trail holds only codes and the model's summary).
import { t } from '../../i18n';
import { aiReviewParts, aiReviewWords } from '../../i18n/en';
import type { TrailEntry } from '../../lib/api';

type Review = { verdict: string; summary?: string; error?: string; by?: string };

const paramsOf = (detail: Record<string, unknown> | null | undefined) => {
  const d = (detail ?? {}) as Review & { agentId?: string };
  return t.aiReview.verdict[d.verdict] ? { ...d, agentId: d.agentId ?? '' } : null;
};

/** The words of one review: "AI pre-review: passed — …". */
export function aiReviewText(detail: Record<string, unknown> | null | undefined): string | null {
  const p = paramsOf(detail);
  return p && aiReviewWords(t.aiReview, p);
}

export function AiReviewNote({ trail, nameOf }: { trail: TrailEntry[]; nameOf: (id: string) => string }) {
  const latest = new Map<string, TrailEntry>();
  for (const e of trail) if (e.type === 'ai_review' && e.activityId) latest.set(e.activityId, e);
  if (!latest.size) return null;
  return (
    <section class="card" aria-label={t.aiReview.title} data-testid="ai-review">
      {[...latest.values()].map((e) => {
        const p = paramsOf(e.detail);
        if (!p) return null;
        // The verdict stands out; the model's words follow as written, then the node.
        const { head, more } = aiReviewParts(t.aiReview, p);
        return (
          <p key={e.activityId} data-verdict={p.verdict}>
            <strong>{head}</strong>
            {more && ` — ${more}`}
            <span class="muted"> · {nameOf(e.activityId!)}</span>
          </p>
        );
      })}
    </section>
  );
}
