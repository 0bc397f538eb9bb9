// Chat webhooks, each in its platform's own format and signing (docs/channels.md): Slack incoming
// webhooks (Block Kit), Microsoft Teams workflow webhooks (Adaptive Card), Feishu/Lark custom bots
// (signed), DingTalk custom robots (signed), WeCom group robots; and the generic webhook, signed like
// service functions. Every request follows the outbound network rules (guardedRequest).
import { createHmac } from 'node:crypto';
import { CALL_ID_HEADER, SIGNATURE_HEADER, TIMESTAMP_HEADER, signature } from '../../infra/outbound/signing.js';
import { guardedRequest, RequestRefused } from '../../infra/outbound/guard.js';
import type { Message } from '../messages/index.js';
import { fileSize } from '../messages/common.js';
import {
  PermanentFailure,
  TransientFailure,
  shorten,
  type Adapter,
  type AdapterDeps,
  type ChannelConfig,
  type Outgoing,
} from './types.js';

/** Feishu/Lark: sign = base64(HMAC-SHA256(key = timestamp + "\n" + secret, message = "")), timestamp in seconds. */
export function feishuSign(secret: string, timestamp: string): string {
  return createHmac('sha256', `${timestamp}\n${secret}`).update('').digest('base64');
}

/** DingTalk: sign = base64(HMAC-SHA256(key = secret, message = timestamp + "\n" + secret)), timestamp in ms; URL-encoded as a query parameter. */
export function dingtalkSign(secret: string, timestamp: string): string {
  return createHmac('sha256', secret).update(`${timestamp}\n${secret}`).digest('base64');
}

/**
 * The instance's files: a heading in the recipient's language (`message.attachmentsTitle`), then one
 * line per file, `[name](signed url) (size)`.
 */
const files = (m: Message) => m.attachments ?? [];
const filesTitle = (m: Message) => m.attachmentsTitle ?? 'Attachments';
// Link text keeps no brackets (they would end it) nor angle brackets (WeCom's markdown reads tags);
// backslash escapes are not markdown every platform reads.
const markdownName = (name: string) => name.replace(/\[/g, '(').replace(/\]/g, ')').replace(/[<>]/g, '');
const markdownFiles = (m: Message, prefix = '') =>
  files(m).map((a) => `${prefix}[${markdownName(a.name)}](${a.url}) (${fileSize(a.size)})`);
/** Slack mrkdwn: `<url|text>`, with &, < and > escaped as Slack asks; whole lines within a section's 3,000 characters. */
const slackEscape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
function slackFiles(m: Message): string {
  let text = `*${slackEscape(filesTitle(m))}*`;
  for (const a of files(m)) {
    const line = `\n<${slackEscape(a.url)}|${slackEscape(a.name).replace(/\|/g, '¦')}> (${fileSize(a.size)})`;
    if (text.length + line.length > 3000) break;
    text += line;
  }
  return text;
}

const markdownFacts = (m: Message) => m.facts.map(([k, v]) => `**${k}:** ${v}`).join('\n');
const markdownLinks = (m: Message) => m.actions.map((a) => `[${a.label}](${a.url})`).join('  ');

function slack(out: Outgoing) {
  const m = out.message;
  const mention = out.to ? `<@${out.to}> ` : '';
  return {
    text: `${mention}${m.subject}`,
    blocks: [
      { type: 'header', text: { type: 'plain_text', text: m.title.slice(0, 150) } },
      { type: 'section', text: { type: 'mrkdwn', text: `${mention}${m.intro}` } },
      ...(m.facts.length
        ? [
            {
              type: 'section',
              fields: m.facts.slice(0, 10).map(([k, v]) => ({ type: 'mrkdwn', text: `*${k}*\n${v}`.slice(0, 2000) })),
            },
          ]
        : []),
      ...(files(m).length ? [{ type: 'section', text: { type: 'mrkdwn', text: slackFiles(m) } }] : []),
      ...(m.actions.length
        ? [
            {
              type: 'actions',
              elements: m.actions.map((a, i) => ({
                type: 'button',
                action_id: `link-${i}`,
                text: { type: 'plain_text', text: a.label },
                url: a.url,
                ...(a.style === 'default' ? {} : { style: a.style }),
              })),
            },
          ]
        : []),
    ],
  };
}

function teams(out: Outgoing) {
  const m = out.message;
  const mention = out.to ? `<at>${out.recipient.name}</at> ` : '';
  return {
    type: 'message',
    attachments: [
      {
        contentType: 'application/vnd.microsoft.card.adaptive',
        contentUrl: null,
        content: {
          $schema: 'http://adaptivecards.io/schemas/adaptive-card.json',
          type: 'AdaptiveCard',
          version: '1.4',
          body: [
            { type: 'TextBlock', text: m.title, weight: 'Bolder', size: 'Medium', wrap: true },
            { type: 'TextBlock', text: `${mention}${m.intro}`, wrap: true },
            { type: 'FactSet', facts: m.facts.map(([title, value]) => ({ title, value })) },
            ...(files(m).length
              ? [
                  { type: 'TextBlock', text: filesTitle(m), weight: 'Bolder', wrap: true },
                  ...markdownFiles(m).map((text) => ({ type: 'TextBlock', text, wrap: true, spacing: 'Small' })),
                ]
              : []),
          ],
          actions: m.actions.map((a) => ({
            type: 'Action.OpenUrl',
            title: a.label,
            url: a.url,
            ...(a.style === 'primary' ? { style: 'positive' } : a.style === 'danger' ? { style: 'destructive' } : {}),
          })),
          ...(out.to
            ? {
                msteams: {
                  entities: [
                    {
                      type: 'mention',
                      text: `<at>${out.recipient.name}</at>`,
                      mentioned: { id: out.to, name: out.recipient.name },
                    },
                  ],
                },
              }
            : {}),
        },
      },
    ],
  };
}

function feishu(out: Outgoing) {
  const m = out.message;
  const mention = out.to ? `<at id=${out.to}></at> ` : '';
  return {
    msg_type: 'interactive',
    card: {
      config: { wide_screen_mode: true },
      header: { title: { tag: 'plain_text', content: m.title }, template: 'blue' },
      elements: [
        { tag: 'div', text: { tag: 'lark_md', content: `${mention}${m.intro}\n${markdownFacts(m)}` } },
        ...(files(m).length
          ? [
              {
                tag: 'div',
                text: { tag: 'lark_md', content: [`**${filesTitle(m)}**`, ...markdownFiles(m)].join('\n') },
              },
            ]
          : []),
        ...(m.actions.length
          ? [
              {
                tag: 'action',
                actions: m.actions.map((a) => ({
                  tag: 'button',
                  text: { tag: 'plain_text', content: a.label },
                  url: a.url,
                  type: a.style === 'primary' ? 'primary' : a.style === 'danger' ? 'danger' : 'default',
                })),
              },
            ]
          : []),
      ],
    },
  };
}

function dingtalk(out: Outgoing) {
  const m = out.message;
  const mention = out.to ? `@${out.to} ` : '';
  return {
    msgtype: 'markdown',
    markdown: {
      title: m.subject,
      text: `### ${m.title}\n\n${mention}${m.intro}\n\n${m.facts.map(([k, v]) => `- **${k}:** ${v}`).join('\n')}\n\n${files(m).length ? `**${filesTitle(m)}**\n\n${markdownFiles(m, '- ').join('\n')}\n\n` : ''}${markdownLinks(m)}`,
    },
    at: { atUserIds: out.to ? [out.to] : [], isAtAll: false },
  };
}

function wecom(out: Outgoing) {
  const m = out.message;
  const mention = out.to ? `<@${out.to}> ` : '';
  return {
    msgtype: 'markdown',
    markdown: {
      content: `### ${m.title}\n${mention}${m.intro}\n${m.facts.map(([k, v]) => `> ${k}: <font color="comment">${v}</font>`).join('\n')}\n${files(m).length ? `**${filesTitle(m)}**\n${markdownFiles(m).join('\n')}\n` : ''}${markdownLinks(m)}`,
    },
  };
}

function generic(out: Outgoing) {
  return {
    messageId: out.messageId,
    threadId: out.threadId,
    recipient: { userId: out.recipient.id, name: out.recipient.name, address: out.to },
    notification: out.notification,
    message: out.message,
  };
}

async function post(
  deps: AdapterDeps,
  url: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; text: string }> {
  const raw = JSON.stringify(body);
  const res = await guardedRequest(deps.config, {
    url,
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: raw,
    timeoutMs: deps.config.NOTIFY_SEND_TIMEOUT_MS,
    allowedHosts: null,
  }).catch((err) => {
    if (err instanceof RequestRefused) throw new PermanentFailure(err.message);
    throw new TransientFailure(`request failed: ${(err as Error)?.message ?? err}`);
  });
  return { status: res.status, text: res.text };
}

/** 2xx passes; 429 and 5xx are worth another attempt; any other status is the settings' fault. */
function judgeStatus(res: { status: number; text: string }) {
  const response = shorten(res.text);
  if (res.status >= 200 && res.status < 300) return;
  const message = `answered ${res.status}${response ? `: ${response}` : ''}`;
  if (res.status === 429 || res.status >= 500 || res.status === 408)
    throw new TransientFailure(message, res.status, response);
  throw new PermanentFailure(message, res.status, response);
}

/** Feishu, DingTalk and WeCom answer 200 with their own code: 0 is success. */
function judgeCode(res: { status: number; text: string }, field: 'code' | 'errcode', retryable: number[]) {
  judgeStatus(res);
  let answer: any;
  try {
    answer = JSON.parse(res.text);
  } catch {
    throw new TransientFailure(`answered something that is not JSON: ${shorten(res.text, 200)}`, res.status);
  }
  const code = answer?.[field] ?? answer?.StatusCode;
  if (code === 0 || code === undefined) return;
  const message = `answered ${field} ${code}: ${shorten(String(answer?.msg ?? answer?.errmsg ?? res.text), 300)}`;
  if (retryable.includes(Number(code))) throw new TransientFailure(message, res.status, shorten(res.text));
  throw new PermanentFailure(message, res.status, shorten(res.text));
}

const result = (res: { status: number; text: string }) => ({ status: res.status, response: shorten(res.text) });
const url = (channel: ChannelConfig) => channel.secrets.url ?? channel.settings.url;

export const chatAdapters: Record<'slack' | 'teams' | 'feishu' | 'dingtalk' | 'wecom' | 'webhook', Adapter> = {
  async slack(deps, channel, out) {
    const res = await post(deps, url(channel), slack(out));
    judgeStatus(res);
    return result(res);
  },
  async teams(deps, channel, out) {
    const res = await post(deps, url(channel), teams(out));
    judgeStatus(res);
    return result(res);
  },
  async feishu(deps, channel, out) {
    const secret = channel.secrets.secret;
    const timestamp = String(Math.floor(Date.now() / 1000));
    const signed = secret ? { timestamp, sign: feishuSign(secret, timestamp) } : {};
    const res = await post(deps, url(channel), { ...signed, ...feishu(out) });
    // 11232: the bot's frequency limit.
    judgeCode(res, 'code', [11232, 9499]);
    return result(res);
  },
  async dingtalk(deps, channel, out) {
    const secret = channel.secrets.secret;
    const target = new URL(url(channel));
    if (secret) {
      const timestamp = String(Date.now());
      target.searchParams.set('timestamp', timestamp);
      target.searchParams.set('sign', dingtalkSign(secret, timestamp));
    }
    const res = await post(deps, target.toString(), dingtalk(out));
    // 130101: sending too fast.
    judgeCode(res, 'errcode', [130101, -1]);
    return result(res);
  },
  async wecom(deps, channel, out) {
    const res = await post(deps, url(channel), wecom(out));
    // 45009: the robot's frequency limit; -1: system busy.
    judgeCode(res, 'errcode', [45009, -1]);
    return result(res);
  },
  async webhook(deps, channel, out) {
    const body = JSON.stringify(generic(out));
    const timestamp = String(Math.floor(Date.now() / 1000));
    const res = await post(deps, url(channel), JSON.parse(body), {
      [TIMESTAMP_HEADER]: timestamp,
      [SIGNATURE_HEADER]: `sha256=${signature(channel.secrets.secret ?? '', timestamp, body)}`,
      [CALL_ID_HEADER]: out.messageId,
    });
    judgeStatus(res);
    return result(res);
  },
};
