// The instance screen (/instances/:id): its header, what an AI pre-review said, the actions the
// caller may take now, the diagram with each node's state, the form, the comments, the trail and the
// upcoming steps. Everything comes from GET /process-instances/{id}/detail and the instance's tasks,
// reloaded on each live notification about it.
import { useEffect, useMemo } from 'preact/hooks';
import { t } from '../../i18n';
import { api, call, type Task } from '../../lib/api';
import { refreshBadge } from '../../lib/badge';
import { onNotification } from '../../lib/live';
import { useLocation } from '../../lib/router';
import { session } from '../../lib/session';
import { ErrorText, Loading, Section, Status, fmtTime, useAsync } from '../../components/ui';
import { Diagram, type NodeState } from '../../components/Diagram';
import { FilesContext, type KnownFile } from '../../components/Attachments';
import { fieldsOf } from '../../components/FormFields';
import { ActionPanel } from './Actions';
import { AiReviewNote } from './AiReviewNote';
import { AttachmentsSection } from './AttachmentsSection';
import { CommentsSection } from './CommentsSection';
import { endText } from './history';
import { Trail, Upcoming } from './Trail';
import { VariablesSection } from './VariablesSection';

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
  // The instance's files the caller may see, with their signed URLs: listed, and named by id in the
  // form, the comments and the trail.
  const files = useAsync(
    () =>
      call(api.GET('/api/v1/workflow/process-instances/{id}/attachments', { params: { path: { id } } }))
        .then((r) => r.items)
        // Like the tasks: a list the caller may not read leaves the page as it was (files named, unlinked).
        .catch(() => []),
    [id],
  );
  const instance = detail.data?.instance;
  const filesContext = useMemo(
    () => ({
      files: Object.fromEntries((files.data ?? []).map((f) => [f.id, f as KnownFile])),
      processKey: instance?.processKey,
    }),
    [files.data, instance?.processKey],
  );
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
    void files.reload(true);
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
    <FilesContext.Provider value={filesContext}>
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
          <AttachmentsSection files={files.data} fields={fieldsOf(form)} />
          <CommentsSection tasks={tasks.data ?? []} canComment={permissions.includes('comment')} onDone={reload} />
        </div>
        <div class="col-side">
          <Trail trail={trail} nameOf={nameOf} />
          <Upcoming upcoming={upcoming} />
        </div>
      </div>
    </FilesContext.Provider>
  );
}
