// A channel's form, apart from its markup: the settings of each type (docs/channels.md: the settings
// table), the draft the form edits, and the request bodies made from a draft or a channel. Secrets
// are write-only: a draft holds one only when typed, or the wish to remove an optional one.
import { t } from './i18n';
import { MESSAGE_KINDS, type Channel, type ChannelBody, type ChannelType, type MessageKind } from './api';

export interface FieldSpec {
  name: string;
  /** Write-only: never answered; the form says whether it is set. */
  secret?: boolean;
  /** Needed on create (a secret) or always (a plain field). */
  required?: boolean;
  input?: 'text' | 'number' | 'url' | 'tls';
  help?: string;
}

const chatUrl: FieldSpec = { name: 'url', secret: true, required: true, input: 'url', help: t.notifyAdmin.help.url };

/** The settings of each type (docs/channels.md: the settings table). */
export const FIELDS: Record<ChannelType, FieldSpec[]> = {
  email: [
    { name: 'host', required: true },
    { name: 'port', input: 'number' },
    { name: 'tls', input: 'tls' },
    { name: 'user' },
    { name: 'password', secret: true },
    { name: 'from', required: true, help: t.notifyAdmin.help.from('approvals@example.com') },
    { name: 'replyTo' },
  ],
  slack: [chatUrl],
  teams: [chatUrl],
  wecom: [chatUrl],
  feishu: [chatUrl, { name: 'secret', secret: true, help: t.notifyAdmin.help.feishuSecret }],
  dingtalk: [chatUrl, { name: 'secret', secret: true, help: t.notifyAdmin.help.dingtalkSecret }],
  webhook: [
    { name: 'url', required: true, input: 'url', help: t.notifyAdmin.help.webhookUrl },
    { name: 'secret', secret: true, required: true, help: t.notifyAdmin.help.webhookSecret },
  ],
};

export interface Draft {
  name: string;
  type: ChannelType;
  enabled: boolean;
  kinds: MessageKind[];
  locale: string;
  /** Plain settings and typed secrets, as typed. */
  values: Record<string, string>;
  /** Optional secrets to remove. */
  remove: Record<string, boolean>;
}

export function draftOf(channel: Channel | null): Draft {
  if (!channel)
    return {
      name: '',
      type: 'email',
      enabled: true,
      kinds: [...MESSAGE_KINDS],
      locale: '',
      values: { port: '587', tls: 'starttls' },
      remove: {},
    };
  const values: Record<string, string> = {};
  for (const f of FIELDS[channel.kind]) {
    const v = channel.settings[f.name];
    if (!f.secret && v !== undefined && v !== null) values[f.name] = String(v);
  }
  return {
    name: channel.name,
    type: channel.kind,
    enabled: channel.enabled,
    kinds: channel.kinds.filter((k): k is MessageKind => (MESSAGE_KINDS as string[]).includes(k)),
    locale: typeof channel.settings.locale === 'string' ? channel.settings.locale : '',
    values,
    remove: {},
  };
}

/** The request body of a draft: the whole channel; a secret only when typed (or removed). */
export function bodyOf(d: Draft, isNew: boolean): ChannelBody {
  const settings: Record<string, unknown> = {};
  for (const f of FIELDS[d.type]) {
    const v = (d.values[f.name] ?? '').trim();
    if (f.secret && !isNew && d.remove[f.name]) settings[f.name] = null;
    else if (!v) continue;
    else settings[f.name] = f.input === 'number' ? Number(v) : v;
  }
  if (d.locale) settings.locale = d.locale;
  return { name: d.name.trim(), kind: d.type, enabled: d.enabled, kinds: d.kinds, settings } as ChannelBody;
}

/** The body that replaces `c` as it is, but for `enabled`: its answered settings are its plain ones. */
export function toggledBody(c: Channel): ChannelBody {
  const settings: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(c.settings))
    if (k !== 'urlHint' && v !== null && v !== undefined) settings[k] = v;
  return { name: c.name, kind: c.kind, enabled: !c.enabled, kinds: c.kinds, settings } as ChannelBody;
}

/** Where a channel sends: the SMTP server, the origin of a chat URL (the rest is a secret), a webhook's URL. */
export function targetOf(c: Channel): string {
  const s = c.settings;
  if (c.kind === 'email') return `${String(s.host ?? '')}:${String(s.port ?? '')}`;
  if (typeof s.url === 'string') return s.url;
  return typeof s.urlHint === 'string' ? s.urlHint : '—';
}
