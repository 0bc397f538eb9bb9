import { useState } from 'preact/hooks';
import { t } from '../i18n';
import { ApiError, api, call, errorText } from '../lib/api';
import { session, type Session } from '../lib/session';

/** What the API lets this token do, asked once at login with requests that change nothing. */
async function probe(token: string): Promise<Session['can']> {
  const headers = { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' };
  const status = (path: string, method = 'GET') =>
    fetch(path, { method, headers, body: method === 'POST' ? '{}' : undefined }).then(
      (r) => r.status,
      () => 0,
    );
  // A write on a definition id that cannot exist: 404 means the permission is there, 403 that it is not.
  const [definitionsWrite, monitor, directory, admin] = await Promise.all([
    status('/api/v1/workflow/process-definitions/~permission-probe/retire', 'POST'),
    status('/api/v1/workflow/tasks/backlog?pageSize=1'),
    status('/api/v1/users?pageSize=1'),
    status('/api/v1/workflow/process-instances/~permission-probe/re-drive', 'POST'),
  ]);
  return {
    definitionsWrite: definitionsWrite === 404,
    monitor: monitor === 200,
    directory: directory === 200,
    admin: admin === 404,
  };
}

export function Login() {
  const [tenant, setTenant] = useState('demo');
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(session.expired ? t.login.expired : null);
  const [busy, setBusy] = useState(false);

  const submit = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const data = await call(
        api.POST('/api/v1/auth/login', { body: { username, password, ...(tenant ? { tenantId: tenant } : {}) } }),
      );
      session.open(data.accessToken, username, await probe(data.accessToken));
    } catch (err) {
      setError(err instanceof ApiError && err.status === 401 ? t.errors.byCode[40101]! : errorText(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <main class="login" id="main">
      <form class="card" onSubmit={(e) => void submit(e)} aria-labelledby="login-title">
        <h1 id="login-title">{t.app}</h1>
        <h2>{t.login.title}</h2>
        <label>
          {t.login.tenant}
          <input
            name="tenant"
            value={tenant}
            onInput={(e) => setTenant(e.currentTarget.value)}
            autocomplete="organization"
          />
        </label>
        <label>
          {t.login.username}
          <input
            name="username"
            value={username}
            onInput={(e) => setUsername(e.currentTarget.value)}
            required
            autocomplete="username"
            autofocus
          />
        </label>
        <label>
          {t.login.password}
          <input
            name="password"
            type="password"
            value={password}
            onInput={(e) => setPassword(e.currentTarget.value)}
            required
            autocomplete="current-password"
          />
        </label>
        {error && (
          <p class="error" role="alert">
            {error}
          </p>
        )}
        <button type="submit" class="primary" disabled={busy}>
          {t.login.submit}
        </button>
      </form>
    </main>
  );
}
