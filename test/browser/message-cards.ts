// Renders a chat payload as a reader sees it — a card in the platform's manner next to the payload
// itself, formatted — so a screenshot shows what each channel posts. Only for the screenshots of
// docs/channels.md: the payloads are what the real adapters sent to a local receiver.

const esc = (s: unknown) =>
  String(s ?? '').replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );

/** The small markdown of DingTalk, WeCom, Slack mrkdwn and lark_md: headings, bold, links, quotes, lists, mentions. */
function markdown(src: string): string {
  return esc(src)
    .split('\n')
    .map((line) => {
      let l = line
        .replace(/\*\*(.+?)\*\*/g, '<b>$1</b>')
        .replace(/(^|\s)\*(\S.*?)\*/g, '$1<b>$2</b>')
        .replace(/\[([^\]]+)\]\(([^)]+)\)/g, '<a class="link">$1</a>')
        // Slack's `<url|text>` (its & already written as &amp;).
        .replace(/&lt;(https?:\/\/[^|\s]+)\|(.+?)&gt;/g, '<a class="link">$2</a>')
        .replace(/&lt;font color=&quot;comment&quot;&gt;(.*?)&lt;\/font&gt;/g, '<span class="muted">$1</span>')
        .replace(/&lt;@([^&]+)&gt;/g, '<span class="mention">@$1</span>')
        .replace(/&lt;at id=([^&]+)&gt;&lt;\/at&gt;/g, '<span class="mention">@$1</span>')
        .replace(/&lt;at&gt;(.*?)&lt;\/at&gt;/g, '<span class="mention">@$1</span>')
        .replace(/(^|\s)@([A-Za-z0-9_-]+)/g, '$1<span class="mention">@$2</span>');
      if (l.startsWith('### ')) return `<h3>${l.slice(4)}</h3>`;
      if (l.startsWith('&gt; ')) l = `<div class="quote">${l.slice(5)}</div>`;
      else if (l.startsWith('- ')) l = `<div class="item">• ${l.slice(2)}</div>`;
      else l = `<div>${l || '&nbsp;'}</div>`;
      return l;
    })
    .join('');
}

const button = (label: string, style?: string) =>
  `<span class="button ${style === 'primary' || style === 'positive' ? 'primary' : style === 'danger' || style === 'destructive' ? 'danger' : ''}">${esc(label)}</span>`;

function slack(p: any): string {
  return (p.blocks ?? [])
    .map((b: any) => {
      if (b.type === 'header') return `<h2>${esc(b.text.text)}</h2>`;
      if (b.type === 'section' && b.fields)
        return `<div class="fields">${b.fields.map((f: any) => `<div>${markdown(f.text)}</div>`).join('')}</div>`;
      if (b.type === 'section') return `<div>${markdown(b.text.text)}</div>`;
      if (b.type === 'actions')
        return `<div class="buttons">${b.elements.map((e: any) => button(e.text.text, e.style)).join('')}</div>`;
      return '';
    })
    .join('');
}

function teams(p: any): string {
  const card = p.attachments?.[0]?.content ?? {};
  const body = (card.body ?? [])
    .map((b: any) => {
      if (b.type === 'TextBlock')
        return b.size === 'Large' || b.size === 'Medium'
          ? `<h2>${esc(b.text)}</h2>`
          : b.weight === 'Bolder'
            ? `<div><b>${esc(b.text)}</b></div>`
            : `<div>${markdown(b.text)}</div>`;
      if (b.type === 'FactSet')
        return `<table class="facts">${b.facts.map((f: any) => `<tr><th>${esc(f.title)}</th><td>${esc(f.value)}</td></tr>`).join('')}</table>`;
      return '';
    })
    .join('');
  return `${body}<div class="buttons">${(card.actions ?? []).map((a: any) => button(a.title, a.style)).join('')}</div>`;
}

function feishu(p: any): string {
  const card = p.card ?? {};
  const parts = (card.elements ?? [])
    .map((e: any) => {
      if (e.tag === 'div') return `<div>${markdown(e.text?.content ?? '')}</div>`;
      if (e.tag === 'action')
        return `<div class="buttons">${e.actions.map((a: any) => button(a.text.content, a.type)).join('')}</div>`;
      return '';
    })
    .join('');
  return `<h2 class="banner">${esc(card.header?.title?.content)}</h2>${parts}`;
}

const markdownCard = (text: string) => markdown(text);

export function chatCardPage(platform: string, payload: any): string {
  const card =
    platform === 'slack'
      ? slack(payload)
      : platform === 'teams'
        ? teams(payload)
        : platform === 'feishu'
          ? feishu(payload)
          : platform === 'dingtalk'
            ? markdownCard(payload.markdown?.text ?? '')
            : markdownCard(payload.markdown?.content ?? '');
  return `<!doctype html><html><head><meta charset="utf-8"><style>
    body { margin: 0; padding: 24px; background: #eef1f5; font: 14px/1.45 -apple-system, 'Segoe UI', Helvetica, Arial, 'Noto Sans CJK SC', sans-serif; color: #1f2328; }
    .row { display: flex; gap: 24px; align-items: flex-start; }
    .card { flex: 0 0 420px; background: #fff; border: 1px solid #d0d7de; border-radius: 8px; padding: 16px; box-shadow: 0 1px 3px rgba(0,0,0,.08); }
    .platform { font-size: 12px; color: #57606a; text-transform: uppercase; letter-spacing: .06em; margin: 0 0 8px; }
    h2 { font-size: 16px; margin: 0 0 8px; } h3 { font-size: 15px; margin: 0 0 6px; }
    .banner { background: #3370ff; color: #fff; margin: 0 0 12px; padding: 10px 16px; border-radius: 6px; }
    .fields { display: grid; grid-template-columns: 1fr 1fr; gap: 8px 16px; margin: 8px 0; }
    .facts th { text-align: left; color: #57606a; font-weight: 600; padding: 2px 12px 2px 0; vertical-align: top; white-space: nowrap; }
    .buttons { margin-top: 12px; display: flex; gap: 8px; flex-wrap: wrap; }
    .button { display: inline-block; padding: 6px 14px; border-radius: 6px; border: 1px solid #d0d7de; font-weight: 600; }
    .button.primary { background: #1a7f37; color: #fff; border-color: #1a7f37; } .button.danger { background: #cf222e; color: #fff; border-color: #cf222e; }
    .link { color: #0969da; text-decoration: underline; margin-right: 12px; }
    .mention { color: #0969da; background: #ddf4ff; border-radius: 4px; padding: 0 2px; }
    .quote { border-left: 3px solid #d0d7de; padding-left: 8px; } .muted { color: #57606a; }
    pre { flex: 1; min-width: 0; margin: 0; background: #fff; border: 1px solid #d0d7de; border-radius: 8px; padding: 12px; font-size: 11px; line-height: 1.4; white-space: pre-wrap; word-break: break-all; }
  </style></head><body><div class="row"><div class="card"><p class="platform">${esc(platform)}</p>${card}</div>
  <pre>${esc(JSON.stringify(payload, null, 2))}</pre></div></body></html>`;
}
