// "Send test": a test message through one channel, to an address typed or the admin's own, and the
// server's answer (status, response, error, message id) as it came.
import { useState } from 'preact/hooks';
import { t } from './i18n';
import { ErrorText } from '../../components/ui';
import { testChannel, type Channel, type TestResult } from './api';
import css from './notification-admin.module.css';

export function ChannelTest({ channel, onClose }: { channel: Channel; onClose: () => void }) {
  const [to, setTo] = useState('');
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<TestResult | null>(null);
  const [error, setError] = useState<unknown>(null);
  async function send(e: Event) {
    e.preventDefault();
    setBusy(true);
    setError(null);
    setResult(null);
    try {
      setResult(await testChannel(channel.id, to.trim() || undefined));
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  }
  return (
    <form class={`editor ${css.editor}`} data-testid="channel-test" onSubmit={(e) => void send(e)}>
      <h3>{t.notifyAdmin.testTitle(channel.name)}</h3>
      <div class="field">
        <label for="channel-test-to">{t.notifyAdmin.testTo}</label>
        <input
          id="channel-test-to"
          name="to"
          value={to}
          autocomplete="off"
          onInput={(e) => setTo(e.currentTarget.value)}
        />
        <span class="muted small">{t.notifyAdmin.testToHelp}</span>
      </div>
      <div class="buttons">
        <button type="submit" class="primary" disabled={busy}>
          {busy ? t.notifyAdmin.testSending : t.notifyAdmin.testSend}
        </button>
        <button type="button" onClick={onClose}>
          {t.common.close}
        </button>
      </div>
      <ErrorText error={error} />
      {result && (
        <div data-testid="test-result" data-ok={String(result.ok)} class={css.result} role="status">
          <p class={result.ok ? 'ok' : 'error'}>
            <strong>{result.ok ? t.notifyAdmin.testOk : t.notifyAdmin.testRefused}</strong>
          </p>
          <dl class={`facts ${css.resultFacts}`}>
            <dt>{t.notifyAdmin.testSentTo}</dt>
            <dd>{result.to ?? '—'}</dd>
            <dt>{t.notifyAdmin.testStatus}</dt>
            <dd data-testid="test-status">{result.status ?? '—'}</dd>
            <dt>{t.notifyAdmin.testAnswer}</dt>
            <dd>
              <code class={css.answer} data-testid="test-answer">
                {result.response ?? '—'}
              </code>
            </dd>
            {result.error && (
              <>
                <dt>{t.notifyAdmin.testError}</dt>
                <dd class="error">{result.error}</dd>
              </>
            )}
            <dt>{t.notifyAdmin.testMessageId}</dt>
            <dd>
              <code class={css.answer}>{result.messageId}</code>
            </dd>
          </dl>
        </div>
      )}
    </form>
  );
}
