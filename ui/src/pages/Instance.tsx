import { useEffect, useMemo, useState } from 'preact/hooks';
import { t } from '../i18n';
import { ApiError, api, call, errorText, type Task, type TrailEntry } from '../lib/api';
import { refreshBadge } from '../lib/badge';
import { onNotification } from '../lib/live';
import { Link, useLocation } from '../lib/router';
import { session } from '../lib/session';
import { ErrorText, Loading, Section, Status, fmtTime, useAsync } from '../components/ui';
import { Diagram, type NodeState } from '../components/Diagram';
import { FormFields, apiFieldErrors, fieldsOf, validate, type Values } from '../components/FormFields';
import { ActionPanel } from '../components/Actions';
import { commentOf, endText, historyText, whyText } from '../features/instance/history';
import { AiReviewNote, aiReviewText } from '../features/ai-review/AiReviewNote';

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

export function InstancePage({ id }: { id: string }) {
  const s = session.get()!;
  const { query } = useLocation();
  const detail = useAsync(
    () => call(api.GET('/api/v1/workflow/process-instances/{id}/detail', { params: { path: { id } } })),
    [id],
  );
  const tasks = useAsync(
    () =>
      call(api.GET('/api/v1/workflow/tasks', { params: { query: { instanceId: id, pageSize: 200 } } }))
        .then((p) => p.items)
        .catch(() => [] as Task[]),
    [id],
  );
  const instance = detail.data?.instance;
  const def = useAsync(
    () =>
      instance
        ? call(
            api.GET('/api/v1/workflow/process-definitions/{id}', { params: { path: { id: instance.definitionId } } }),
          ).catch(() => null)
        : Promise.resolve(null),
    [instance?.definitionId],
  );
  const reload = () => {
    void detail.reload(true);
    void tasks.reload(true);
    void refreshBadge();
  };
  useEffect(() => onNotification((n) => n.instanceId === id && reload()), [id]);

  const nodes: any[] = (def.data?.dsl as any)?.metadata?.nodes ?? [];
  const nameOf = (activityId: string | null) =>
    activityId ? (nodes.find((n) => n.id === activityId)?.name ?? activityId) : '';

  const states = useMemo(() => {
    const out: Record<string, NodeState> = {};
    if (!detail.data) return out;
    const { instance: inst, trail, upcoming } = detail.data;
    const first = nodes[(def.data?.dsl as any)?.metadata?.firstNodeIndex ?? 0];
    if (first && inst.status !== 'draft') out[first.id] = 'done';
    for (const e of trail) if (e.activityId) out[e.activityId] = 'done';
    for (const u of upcoming) out[u.activityId] = 'upcoming';
    // Everything reachable from the current nodes that has not run yet is upcoming too (the API's
    // list names the approval steps; copies, branches and the end are ahead as well). An approval
    // step the API leaves out (a branch its switch does not take) is not ahead, nor what lies past it.
    const live = inst.status === 'active' || inst.status === 'suspended' || inst.status === 'draft';
    const connections: Array<{ fromId: string; toId: string }> = (def.data?.dsl as any)?.metadata?.connections ?? [];
    const queue = live ? [...(inst.status === 'draft' && first ? [first.id] : []), ...inst.currentNodes] : [];
    const seen = new Set(queue);
    const notAhead = (id: string) =>
      nodes.find((n) => n.id === id)?.type === 'userTask' && !upcoming.some((u) => u.activityId === id);
    while (queue.length) {
      const from = queue.shift()!;
      for (const c of connections)
        if (c.fromId === from && !seen.has(c.toId) && !notAhead(c.toId)) {
          seen.add(c.toId);
          queue.push(c.toId);
          if (!out[c.toId]) out[c.toId] = 'upcoming';
        }
    }
    for (const c of inst.currentNodes) out[c] = 'current';
    // Nodes that leave no trail (start, branches, forks) ran when a node after them ran.
    const passing = new Set([
      'startTask',
      'switch',
      'inclusive',
      'fork',
      'join',
      'ccTask',
      'serviceTask',
      'httpCall',
      'delay',
    ]);
    for (let changed = true; changed;) {
      changed = false;
      for (const n of nodes) {
        if (out[n.id] === 'done' || out[n.id] === 'current' || !passing.has(n.type)) continue;
        if (connections.some((c) => c.fromId === n.id && (out[c.toId] === 'done' || out[c.toId] === 'current'))) {
          out[n.id] = 'done';
          changed = true;
        }
      }
    }
    if (inst.status === 'completed') for (const n of nodes) if (n.type === 'end') out[n.id] = 'done';
    return out;
  }, [detail.data, def.data]);

  if (detail.loading && !detail.data) return <Loading />;
  if (!detail.data || !instance) return <ErrorText error={detail.error} />;
  const { trail, upcoming, permissions, form } = detail.data;
  const temporalBase =
    document.querySelector<HTMLMetaElement>('meta[name="app-temporal-ui"]')?.content ||
    `${window.location.protocol}//${window.location.hostname}:8233`;
  const namespace =
    document.querySelector<HTMLMetaElement>('meta[name="app-temporal-namespace"]')?.content || 'default';
  const workflowId = `approval-${s.tenantId}-${instance.id}`;
  const endReason = endText(instance, t, nameOf);
  const known = [
    ...new Set(
      [...trail.map((e) => e.userId), ...(tasks.data ?? []).map((x) => x.assignee), instance.initiatorId].filter(
        (x): x is string => !!x,
      ),
    ),
  ];

  return (
    <>
      <header class="card instance-head" data-testid="instance-header">
        <h1>
          {instance.processName} <Status value={instance.status} />
        </h1>
        {query.get('started') && (
          <p class="ok" role="status">
            {t.start.submitted}
          </p>
        )}
        {query.get('draft') && (
          <p class="ok" role="status">
            {t.start.draftSaved}
          </p>
        )}
        <dl class="facts">
          <dt>{t.instance.businessKey}</dt>
          <dd data-testid="business-key">{instance.businessKey ?? '—'}</dd>
          <dt>{t.instance.initiator}</dt>
          <dd>{instance.initiatorId}</dd>
          <dt>{t.instance.started}</dt>
          <dd>{fmtTime(instance.startTime)}</dd>
          {instance.endTime && (
            <>
              <dt>{t.instance.ended}</dt>
              <dd>{fmtTime(instance.endTime)}</dd>
            </>
          )}
          {endReason && (
            <>
              <dt>{t.instance.endReason}</dt>
              <dd data-testid="end-reason" data-code={instance.endCode ?? undefined}>
                {endReason}
              </dd>
            </>
          )}
          <dt>{t.instance.process}</dt>
          <dd>
            {instance.processKey} v{instance.processVersion ?? '—'}
          </dd>
        </dl>
        {(s.can.monitor || s.can.admin) && (
          <p>
            <a
              href={`${temporalBase}/namespaces/${encodeURIComponent(namespace)}/workflows/${encodeURIComponent(workflowId)}`}
              target="_blank"
              rel="noopener"
              data-testid="temporal-link"
            >
              {t.instance.temporal}
            </a>
          </p>
        )}
      </header>

      <div class="columns">
        <div class="col-main">
          <AiReviewNote trail={trail} nameOf={nameOf} />
          <ActionPanel
            instance={instance}
            permissions={permissions}
            tasks={tasks.data ?? []}
            trail={trail}
            nodes={nodes}
            known={known}
            onDone={reload}
          />
          {def.data && (
            <Section title={t.instance.diagram} id="diagram">
              <Diagram dsl={def.data.dsl} states={states} title={`${t.instance.diagram}: ${instance.processName}`} />
            </Section>
          )}
          <VariablesSection form={form} instance={instance} tasks={tasks.data ?? []} onDone={reload} />
          <CommentsSection tasks={tasks.data ?? []} canComment={permissions.includes('comment')} onDone={reload} />
        </div>
        <div class="col-side">
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
                      {(e.type === 'assign' || e.type === 'system') && !e.userId
                        ? ''
                        : ((t.trail as any)[e.type] ?? e.type)}
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
                  </li>
                );
              })}
            </ol>
          </Section>
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
        </div>
      </div>
    </>
  );
}

function VariablesSection({
  form,
  instance,
  tasks,
  onDone,
}: {
  form: any;
  instance: any;
  tasks: Task[];
  onDone: () => void;
}) {
  const me = session.get()!.userId;
  const fields = fieldsOf(form);
  const [values, setValues] = useState<Values>(instance.variables ?? {});
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [msg, setMsg] = useState<{ ok: boolean; text: string } | null>(null);
  useEffect(() => setValues(instance.variables ?? {}), [instance]);
  if (!fields.length) return null;
  const writable = fields.some((f: any) => f.permission === 'w');
  const myTask = tasks.find((x) => x.assignee === me && x.status === 'active');
  const draft = instance.status === 'draft' && instance.initiatorId === me;
  const save = async () => {
    const found = validate(fields, values);
    setErrors(found);
    if (Object.keys(found).length) return;
    const changed: Values = {};
    for (const f of fields)
      if ((f as any).permission === 'w' && values[f.name] !== undefined) changed[f.name] = values[f.name];
    try {
      if (myTask)
        await call(
          api.POST('/api/v1/workflow/tasks/{id}/variables', {
            params: { path: { id: myTask.id } },
            body: { variables: changed },
          }),
        );
      else
        await call(
          api.POST('/api/v1/workflow/process-instances/{id}/variables', {
            params: { path: { id: instance.id } },
            body: { variables: changed },
          }),
        );
      setMsg({ ok: true, text: t.instance.saved });
      onDone();
    } catch (err) {
      if (err instanceof ApiError) setErrors(apiFieldErrors(err.data));
      setMsg({ ok: false, text: errorText(err) });
    }
  };
  return (
    <Section title={t.instance.variables} id="variables">
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void save();
        }}
        noValidate
      >
        <FormFields fields={fields} form={form} values={values} errors={errors} onChange={setValues} idPrefix="var" />
        {msg && (
          <p class={msg.ok ? 'ok' : 'error'} role={msg.ok ? 'status' : 'alert'}>
            {msg.text}
          </p>
        )}
        <div class="buttons">
          {writable && (myTask || draft) && <button type="submit">{t.instance.saveVariables}</button>}
        </div>
      </form>
    </Section>
  );
}

function CommentsSection({ tasks, canComment, onDone }: { tasks: Task[]; canComment: boolean; onDone: () => void }) {
  const me = session.get()!.userId;
  const open = tasks.filter((x) => ['active', 'pending', 'waiting', 'suspended'].includes(x.status)).slice(0, 5);
  const mine = tasks.find((x) => x.assignee === me && x.status === 'active');
  const key = open.map((x) => x.id).join(',');
  const comments = useAsync(
    () =>
      Promise.all(
        open.map((x) =>
          call(
            api.GET('/api/v1/workflow/tasks/{id}/comments', {
              params: { path: { id: x.id }, query: { pageSize: 100 } },
            }),
          )
            .then((p) => p.items)
            .catch(() => []),
        ),
      ).then((l) => l.flat()),
    [key],
  );
  const [text, setText] = useState('');
  const [error, setError] = useState<unknown>(null);
  const post = async (e: Event) => {
    e.preventDefault();
    if (!mine || !text.trim()) return;
    try {
      await call(
        api.POST('/api/v1/workflow/tasks/{id}/comments', {
          params: { path: { id: mine.id } },
          body: { comment: text },
        }),
      );
      setText('');
      setError(null);
      void comments.reload(true);
      onDone();
    } catch (err) {
      setError(err);
    }
  };
  return (
    <Section title={t.instance.comments} id="comments">
      {comments.data && !comments.data.length && <p class="muted">{t.instance.noComments}</p>}
      <ul class="plain">
        {comments.data?.map((c) => (
          <li key={c.id}>
            <strong>{c.userId}</strong> <time class="muted small">{fmtTime(c.time)}</time>
            <blockquote class="comment">{c.comment}</blockquote>
          </li>
        ))}
      </ul>
      {canComment && mine && (
        <form onSubmit={(e) => void post(e)}>
          <label for="new-comment">{t.instance.addComment}</label>
          <textarea id="new-comment" value={text} onInput={(e) => setText(e.currentTarget.value)} />
          <ErrorText error={error} />
          <button type="submit">{t.instance.commentPost}</button>
        </form>
      )}
      <p class="small">
        <Link href="/inbox/todo">← {t.nav.inbox}</Link>
      </p>
    </Section>
  );
}
