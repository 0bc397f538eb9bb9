// The comments on the instance's open tasks, and a new one on the caller's own task.
import { useState } from 'preact/hooks';
import { t } from '../../i18n';
import { api, call, type Task } from '../../lib/api';
import { Link } from '../../lib/router';
import { session } from '../../lib/session';
import { ErrorText, Field, Section, fmtTime, useAsync } from '../../components/ui';
import { FileChips, FileUpload, uploadsInProgress } from '../../components/Attachments';

export function CommentsSection({
  tasks,
  canComment,
  onDone,
}: {
  tasks: Task[];
  canComment: boolean;
  onDone: () => void;
}) {
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
  const [files, setFiles] = useState<string[]>([]);
  // A new upload control after each post (its list starts empty again).
  const [round, setRound] = useState(0);
  const [error, setError] = useState<unknown>(null);
  const post = async (e: Event) => {
    e.preventDefault();
    if (!mine || !text.trim()) return;
    if (uploadsInProgress()) return setError(new Error(t.files.wait));
    try {
      await call(
        api.POST('/api/v1/workflow/tasks/{id}/comments', {
          params: { path: { id: mine.id } },
          body: { comment: text, ...(files.length ? { attachments: files } : {}) },
        }),
      );
      setText('');
      setFiles([]);
      setRound(round + 1);
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
            {c.attachments?.length ? <FileChips files={c.attachments} testid="comment-files" /> : null}
          </li>
        ))}
      </ul>
      {canComment && mine && (
        <form onSubmit={(e) => void post(e)}>
          <label for="new-comment">{t.instance.addComment}</label>
          <textarea id="new-comment" value={text} onInput={(e) => setText(e.currentTarget.value)} />
          <Field id="comment-files" label={t.files.attach}>
            <FileUpload key={round} id="comment-files" value={files} onChange={setFiles} multiple />
          </Field>
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
