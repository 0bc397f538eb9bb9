// The instance's trail (who did what, why each person was assigned, the engine's own entries in
// words) and its upcoming steps, exactly as the API's /detail gives them.
import { t } from '../../i18n';
import type { Schemas, TrailEntry } from '../../lib/api';
import { Section, fmtTime } from '../../components/ui';
import { FileChips } from '../../components/Attachments';
import { commentOf, historyText, whyText } from './history';
import { aiReviewText } from './AiReviewNote';

function detailWords(e: TrailEntry): string | null {
  const d = (e.detail ?? {}) as Record<string, any>;
  // An entry the engine worded already names who, from and to in its sentence.
  if (e.code && (e.type === 'reassign' || e.type === 'migrate')) return null;
  switch (e.type) {
    case 'transfer':
    case 'reassign':
      return [d.from && t.trail.from(d.from), d.to && t.trail.to(d.to)].filter(Boolean).join(' ') || null;
    case 'delegate':
      return d.to ? t.trail.to(d.to) : null;
    case 'return':
      return d.target ? t.trail.to(d.target) : null;
    case 'add_sign':
      return Array.isArray(d.assigneeUserIds)
        ? `${d.assigneeUserIds.join(', ')}${d.position ? ` (${d.position})` : ''}`
        : null;
    case 'reduce_sign':
      return Array.isArray(d.removed) ? d.removed.join(', ') : null;
    case 'auto_approve':
    case 'auto_reject':
      // Older entries name the rule in notation; newer ones say it from their code.
      return !e.code && typeof d.rule === 'string' ? d.rule : null;
    case 'ai_review':
      // Coded entries are worded by historyText; this covers any recorded without a code.
      return e.code ? null : aiReviewText(d);
    case 'migrate':
      return d.toVersion !== undefined ? `v${d.fromVersion ?? '?'} → v${d.toVersion}` : null;
    default:
      return null;
  }
}

export function Trail({ trail, nameOf }: { trail: TrailEntry[]; nameOf: (activityId: string | null) => string }) {
  return (
    <Section title={t.instance.trail} id="trail">
      <ol class="timeline" data-testid="trail">
        {trail.map((e) => {
          const why = e.type === 'assign' ? whyText(e.detail, t) : null;
          const extra = detailWords(e);
          const said = historyText(e, t, nameOf);
          const comment = commentOf(e);
          return (
            <li key={e.id} class={`tl tl-${e.type}`} data-type={e.type} data-user={e.userId ?? ''}>
              <time dateTime={e.time}>{fmtTime(e.time)}</time>
              <div>
                <strong>{e.userId ?? (e.type === 'assign' ? t.trail.poolAssigned : t.trail.someone)}</strong>{' '}
                {/* A pool opened, or the system speaking: the name before says it already. */}
                {(e.type === 'assign' || e.type === 'system') && !e.userId ? '' : ((t.trail as any)[e.type] ?? e.type)}
                {e.activityId && <span class="muted"> · {nameOf(e.activityId)}</span>}
                {extra && <span> {extra}</span>}
              </div>
              {why && (
                <div class="why" data-testid="assign-reason">
                  {t.instance.why}: {why}
                </div>
              )}
              {said && (
                <div class="system-note" data-testid="trail-said" data-code={e.code ?? ''}>
                  {said}
                </div>
              )}
              {comment && <blockquote class="comment">{comment}</blockquote>}
              {Array.isArray((e.detail as any)?.attachments) && (
                <FileChips files={(e.detail as any).attachments} testid="trail-files" />
              )}
            </li>
          );
        })}
      </ol>
    </Section>
  );
}

export function Upcoming({ upcoming }: { upcoming: Schemas['UpcomingNode'][] }) {
  return (
    <Section title={t.instance.upcoming} id="upcoming">
      {/* Exactly the API's prediction (GET /process-instances/{id}/detail): the console adds nothing of its own. */}
      {!upcoming.length ? (
        <p class="muted">{t.common.none}</p>
      ) : (
        <ul class="plain" data-testid="upcoming">
          {upcoming.map((u) => (
            <li key={u.activityId}>
              <strong>{u.name}</strong> {u.approvers.length > 0 && <span>— {u.approvers.join(', ')}</span>}
              {(u.candidates.roleIds.length > 0 || u.candidates.deptIds.length > 0) && (
                <span>
                  {' '}
                  — {t.nodeKind.pool} {[...u.candidates.roleIds, ...u.candidates.deptIds].join(', ')}
                </span>
              )}
              {u.undecided && <span class="muted"> ({t.instance.upcomingUndecided})</span>}
            </li>
          ))}
        </ul>
      )}
    </Section>
  );
}
