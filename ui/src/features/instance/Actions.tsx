// The actions /detail says the caller may take now, each with its form. Errors from the API are
// shown next to the action that caused them, in words.
import { useState } from 'preact/hooks';
import { t } from '../../i18n';
import { api, call, errorText, type Instance, type Task, type TrailEntry } from '../../lib/api';
import { session } from '../../lib/session';
import { Field, TextField } from '../../components/ui';
import { PeoplePicker } from '../../components/PeoplePicker';
import { FileUpload, uploadsInProgress } from '../../components/Attachments';

type Name =
  | 'approve'
  | 'reject'
  | 'return'
  | 'transfer'
  | 'delegate'
  | 'addSign'
  | 'reduceSign'
  | 'claim'
  | 'unclaim'
  | 'resolve'
  | 'complete'
  | 'withdraw'
  | 'urge'
  | 'suspend'
  | 'activate'
  | 'terminate';
const order: Name[] = [
  'claim',
  'approve',
  'reject',
  'complete',
  'return',
  'transfer',
  'delegate',
  'addSign',
  'reduceSign',
  'unclaim',
  'resolve',
  'urge',
  'withdraw',
  'suspend',
  'activate',
  'terminate',
];
/** Task actions whose comment or reason may carry files (`attachments` in the body). */
const withFiles: Name[] = ['approve', 'reject', 'complete', 'return', 'transfer', 'delegate', 'addSign', 'reduceSign'];
/** Actions that need no form: one click (a confirmation for the irreversible ones is the form's button). */
const direct: Name[] = ['claim', 'unclaim', 'resolve'];

const open = (x: Task) => ['active', 'pending', 'waiting', 'suspended'].includes(x.status);

export function ActionPanel({
  instance,
  permissions,
  tasks,
  trail,
  nodes,
  known,
  onDone,
}: {
  instance: Instance;
  permissions: string[];
  tasks: Task[];
  trail: TrailEntry[];
  nodes: any[];
  known: string[];
  onDone: () => void;
}) {
  const me = session.get()!.userId;
  const [openForm, setOpenForm] = useState<Name | null>(null);
  const [result, setResult] = useState<Record<string, { ok: boolean; text: string }>>({});
  const [busy, setBusy] = useState(false);
  const [comment, setComment] = useState('');
  const [files, setFiles] = useState<string[]>([]);
  const [users, setUsers] = useState<string[]>([]);
  const [target, setTarget] = useState('');
  const [position, setPosition] = useState<'before' | 'after' | 'parallel'>('before');

  const mine = tasks.find((x) => x.status === 'active' && x.assignee === me && x.kind !== 'delay') ?? null;
  const owned = tasks.find((x) => x.status === 'active' && x.owner === me) ?? null;
  const pool = tasks.find((x) => x.status === 'pending') ?? null;
  const anyOpen = tasks.find((x) => x.status === 'active' || x.status === 'pending') ?? null;
  const available = order.filter((a) => permissions.includes(a));

  // Return: the most recently completed approval node before mine (what the API allows), pre-selected.
  const approvalNodes = new Set(nodes.filter((n) => n.type === 'userTask').map((n) => n.id));
  const returnTargets = [
    ...new Set(
      trail
        .filter(
          (e) =>
            (e.type === 'approve' || e.type === 'auto_approve') &&
            e.activityId &&
            e.activityId !== mine?.activityId &&
            (!nodes.length || approvalNodes.has(e.activityId)),
        )
        .map((e) => e.activityId!)
        .reverse(),
    ),
  ];
  const returnTarget = target || returnTargets[0] || '';
  const nameOf = (id: string) => nodes.find((n) => n.id === id)?.name ?? id;
  // Reduce-sign: the signers I added (sub-tasks of my task) or the other open ballots of my node.
  const signers = mine
    ? tasks
        .filter(
          (x) =>
            open(x) &&
            x.assignee &&
            x.assignee !== me &&
            (x.parentTaskId === mine.id ||
              (x.activityId === mine.activityId && x.parentTaskId && x.parentTaskId === mine.parentTaskId)),
        )
        .map((x) => x.assignee!)
    : [];

  const taskFor = (a: Name): Task | null => {
    if (a === 'claim') return pool;
    if (a === 'resolve') return owned ?? mine;
    if (a === 'urge') return anyOpen;
    return mine;
  };

  const toggle = (a: Name) => {
    if (openForm === a) return setOpenForm(null);
    setOpenForm(a);
    setComment('');
    setFiles([]);
    setUsers([]);
    setTarget('');
    setPosition('before');
  };

  const run = async (a: Name) => {
    const task = taskFor(a);
    const id = task?.id ?? '';
    const p = { params: { path: { id } } };
    const reason = comment || undefined;
    // The optional reason and files go into the body only when there are some.
    const attached = withFiles.includes(a) && files.length ? { attachments: files } : {};
    const withReason = <B extends object>(body: B) => ({ ...body, ...(reason ? { reason } : {}), ...attached });
    setBusy(true);
    try {
      if ((a === 'transfer' || a === 'delegate') && users.length !== 1) throw new Error(t.action.noUser);
      if ((a === 'addSign' || a === 'reduceSign') && !users.length) throw new Error(t.action.noUsers);
      if (uploadsInProgress()) throw new Error(t.files.wait);
      switch (a) {
        case 'approve':
        case 'reject':
        case 'complete':
          await call(
            api.POST(`/api/v1/workflow/tasks/{id}/${a}`, {
              ...p,
              body: { ...(comment ? { comment } : {}), ...attached },
            }),
          );
          break;
        case 'return':
          await call(
            api.POST('/api/v1/workflow/tasks/{id}/return', {
              ...p,
              body: withReason({ targetActivityId: returnTarget }),
            }),
          );
          break;
        case 'transfer':
        case 'delegate':
          await call(
            api.POST(`/api/v1/workflow/tasks/{id}/${a}`, { ...p, body: withReason({ assigneeUserId: users[0]! }) }),
          );
          break;
        case 'addSign':
          await call(
            api.POST('/api/v1/workflow/tasks/{id}/add-sign', {
              ...p,
              body: withReason({ assigneeUserIds: users, position }),
            }),
          );
          break;
        case 'reduceSign':
          await call(
            api.POST('/api/v1/workflow/tasks/{id}/reduce-sign', { ...p, body: withReason({ assigneeUserIds: users }) }),
          );
          break;
        case 'claim':
        case 'unclaim':
        case 'resolve':
          await call(api.POST(`/api/v1/workflow/tasks/{id}/${a}`, { ...p, body: {} }));
          break;
        case 'urge':
          await call(api.POST('/api/v1/workflow/tasks/urge/{id}', { ...p, body: comment ? { message: comment } : {} }));
          break;
        case 'withdraw':
        case 'suspend':
        case 'activate':
        case 'terminate':
          // Instance actions share one shape: POST …/process-instances/{id}/<action> with an optional reason.
          await call(
            api.POST(`/api/v1/workflow/process-instances/{id}/${a}`, {
              params: { path: { id: instance.id } },
              body: withReason({}),
            }),
          );
          break;
      }
      setResult({ [a]: { ok: true, text: t.action.done(t.action[a]) } });
      setOpenForm(null);
      onDone();
    } catch (err) {
      setResult({ [a]: { ok: false, text: errorText(err) } });
    } finally {
      setBusy(false);
    }
  };

  // A draft of mine: submitting it starts the instance (POST /{id}/submit-draft).
  const draft = instance.status === 'draft' && instance.initiatorId === me;
  const submitDraft = async () => {
    setBusy(true);
    try {
      await call(
        api.POST('/api/v1/workflow/process-instances/{id}/submit-draft', { params: { path: { id: instance.id } } }),
      );
      setResult({ submitDraft: { ok: true, text: t.start.submitted } });
      onDone();
    } catch (err) {
      setResult({ submitDraft: { ok: false, text: errorText(err) } });
    } finally {
      setBusy(false);
    }
  };

  const commentLabel = (a: Name) =>
    a === 'approve' || a === 'reject' || a === 'complete'
      ? t.action.comment
      : a === 'urge'
        ? t.action.message
        : t.action.reason;

  // The people the form's action is for: one (transfer, delegate) or several (add-sign, reduce-sign).
  const userPicker = (id: string, multiple: boolean) => (
    <PeoplePicker
      id={id}
      kind="user"
      label={multiple ? t.action.users : t.action.user}
      multiple={multiple}
      value={users}
      onChange={setUsers}
      known={known}
      exclude={[me]}
    />
  );

  return (
    <section class="card actions" aria-labelledby="actions-h" data-testid="actions">
      <h2 id="actions-h">{t.instance.actions}</h2>
      {!available.length && !draft && <p class="muted">{t.instance.noActions}</p>}
      {draft && (
        <div class="buttons">
          <button
            type="button"
            class="primary"
            data-action="submitDraft"
            disabled={busy}
            onClick={() => void submitDraft()}
          >
            {t.instance.submitDraft}
          </button>
        </div>
      )}
      <div class="buttons wrap">
        {available.map((a) => (
          <button
            key={a}
            type="button"
            class={
              a === 'approve' || a === 'claim' ? 'primary' : a === 'reject' || a === 'terminate' ? 'danger' : undefined
            }
            aria-expanded={direct.includes(a) ? undefined : openForm === a}
            aria-controls={direct.includes(a) ? undefined : `form-${a}`}
            data-action={a}
            disabled={busy}
            onClick={() => (direct.includes(a) ? void run(a) : toggle(a))}
          >
            {t.action[a]}
          </button>
        ))}
      </div>
      {Object.entries(result).map(([a, r]) =>
        r.ok || openForm !== a ? (
          <p
            key={a}
            class={r.ok ? 'ok' : 'error'}
            role={r.ok ? 'status' : 'alert'}
            data-testid={r.ok ? 'action-ok' : 'action-error'}
            data-result-of={a}
          >
            {r.text}
          </p>
        ) : null,
      )}
      {available.map((a) => {
        const r = result[a];
        return (
          <div key={a}>
            {openForm === a && (
              <form
                id={`form-${a}`}
                class="action-form"
                aria-label={t.action[a]}
                data-form={a}
                onSubmit={(e) => {
                  e.preventDefault();
                  void run(a);
                }}
              >
                {a === 'return' && (
                  <Field id="return-target" label={t.action.target}>
                    <select
                      id="return-target"
                      name="targetActivityId"
                      value={returnTarget}
                      onChange={(e) => setTarget(e.currentTarget.value)}
                    >
                      {returnTargets.map((id) => (
                        <option key={id} value={id}>
                          {nameOf(id)}
                        </option>
                      ))}
                      {nodes
                        .filter(
                          (n) => n.type === 'userTask' && !returnTargets.includes(n.id) && n.id !== mine?.activityId,
                        )
                        .map((n) => (
                          <option key={n.id} value={n.id}>
                            {n.name ?? n.id}
                          </option>
                        ))}
                    </select>
                  </Field>
                )}
                {(a === 'transfer' || a === 'delegate') && userPicker(`${a}-user`, false)}
                {a === 'addSign' && (
                  <>
                    {userPicker('addsign-users', true)}
                    <Field id="addsign-position" label={t.action.position}>
                      <select
                        id="addsign-position"
                        value={position}
                        onChange={(e) => setPosition(e.currentTarget.value as any)}
                      >
                        <option value="before">{t.action.positionBefore}</option>
                        <option value="after">{t.action.positionAfter}</option>
                        <option value="parallel">{t.action.positionParallel}</option>
                      </select>
                    </Field>
                  </>
                )}
                {a === 'reduceSign' && (
                  <fieldset>
                    <legend>{t.action.users}</legend>
                    {signers.length
                      ? signers.map((u) => (
                          <label key={u} class="check">
                            <input
                              type="checkbox"
                              name="reduce"
                              value={u}
                              checked={users.includes(u)}
                              onChange={(e) =>
                                setUsers(e.currentTarget.checked ? [...users, u] : users.filter((x) => x !== u))
                              }
                            />
                            {u}
                          </label>
                        ))
                      : userPicker('reduce-users', true)}
                  </fieldset>
                )}
                <TextField
                  id={`${a}-comment`}
                  label={commentLabel(a)}
                  name="comment"
                  value={comment}
                  onValue={setComment}
                  multiline
                />
                {withFiles.includes(a) && (
                  <Field id={`${a}-files`} label={t.files.attach}>
                    <FileUpload id={`${a}-files`} value={files} onChange={setFiles} multiple />
                  </Field>
                )}
                <div class="buttons">
                  <button
                    type="submit"
                    class={a === 'reject' || a === 'terminate' ? 'danger' : 'primary'}
                    disabled={busy}
                    data-confirm={a}
                  >
                    {t.action[a]}
                  </button>
                  <button type="button" onClick={() => setOpenForm(null)}>
                    {t.common.cancel}
                  </button>
                </div>
                {r && !r.ok && (
                  <p class="error" role="alert" data-testid="action-error">
                    {r.text}
                  </p>
                )}
              </form>
            )}
          </div>
        );
      })}
    </section>
  );
}
