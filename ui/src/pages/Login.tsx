import { useState } from 'preact/hooks';
import { t } from '../i18n';
import { ApiError, api, call, errorText } from '../lib/api';
import { accessOf } from '../lib/access';
import { LanguageSwitch } from '../components/LanguageSwitch';
import { session } from '../lib/session';
import { LabelledInput } from '../components/ui';

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
      session.open(data.accessToken, username, (await accessOf(data.accessToken)).can);
    } catch (err) {
      setError(err instanceof ApiError && err.status === 401 ? t.errors.byCode[40101]! : errorText(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <main class="login" id="main">
      <form class="card" onSubmit={(e) => void submit(e)} aria-labelledby="login-title">
        <div class="login-lang">
          <LanguageSwitch />
        </div>
        <h1 id="login-title">{t.app}</h1>
        <h2>{t.login.title}</h2>
        <LabelledInput
          label={t.login.tenant}
          name="tenant"
          value={tenant}
          onValue={setTenant}
          autocomplete="organization"
        />
        <LabelledInput
          label={t.login.username}
          name="username"
          value={username}
          onValue={setUsername}
          required
          autocomplete="username"
          autofocus
        />
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
