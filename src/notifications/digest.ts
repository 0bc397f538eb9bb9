// The daily digest (docs/channels.md#preferences): once a day, at the hour a user chose in their time
// zone, one message per channel that would carry their task messages, listing every open task of
// theirs with its Approve / Reject links. Planned by the dispatcher as delivery rows (one per user,
// channel and day, a unique index), so it is claimed, leased, retried and logged like every delivery.
import { withBodies } from './templates/render.js';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Config } from '../config.js';
import { publicUrl } from '../config.js';
import type { Orm } from '../db/orm.js';
import { mintSystemLink } from '../tasks/approval-links.js';
import { todoWhere } from '../read-model/read-model.js';
import type { Locale, Message } from './messages/index.js';
import { formatWhen } from './messages/common.js';
import { DIGEST_KIND, digestDay, nextDigestAt } from './preference-policy.js';
import { preferencesOf } from './preferences.js';

/** Tasks one digest lists; past that it says how many more wait in the console. */
const DIGEST_TASKS = 50;
/** Users planned per round: the rest follow in the next round. */
const PLAN_BATCH = 200;

/** `<digest.<delivery id>.<channel id>@domain>`: the same for every attempt of one digest. */
export function digestMessageIdOf(deliveryId: string, channelId: string, domain: string) {
  return `<digest.${deliveryId}.${channelId}@${domain}>`;
}

/**
 * Adds the digest deliveries that have come due at `now` and moves each planned user's next digest to
 * the following day. The users' rows are locked (SKIP LOCKED) while a dispatcher plans them, and the
 * unique index keeps one digest per user, channel and day even if two plan the same day.
 */
export async function planDigests(orm: Orm, now: Date, tenantId?: string): Promise<number> {
  return orm.em.fork().transactional(async (tx) => {
    const due = await tx.execute(
      `select * from notification_preferences
        where digest_next_at <= ? and (?::text is null or tenant_id = ?)
        order by digest_next_at limit ${PLAN_BATCH} for update skip locked`,
      [now, tenantId ?? null, tenantId ?? null],
    );
    let planned = 0;
    for (const row of due) {
      const prefs = preferencesOf(row);
      if (!prefs?.digest) continue;
      const { hour } = prefs.digest;
      const channels = await tx.execute<Array<{ id: string; kinds: string[] }>>(
        `select id, kinds from notification_channels where tenant_id = ? and enabled`,
        [row.tenant_id],
      );
      // The digest goes where the user's task messages would go.
      const carriers = channels.filter(
        (c) => c.kinds.includes('task_assigned') && (prefs.channels[c.id] ?? c.kinds).includes('task_assigned'),
      );
      for (const c of carriers) {
        const inserted = await tx.execute(
          `insert into notification_deliveries (tenant_id, channel_id, user_id, kind, digest_date, next_attempt_at)
           values (?, ?, ?, ?, ?::date, ?) on conflict do nothing returning id`,
          [row.tenant_id, c.id, row.user_id, DIGEST_KIND, digestDay(hour, prefs.timeZone, now), now],
        );
        planned += inserted.length;
      }
      await tx.execute(`update notification_preferences set digest_next_at = ? where tenant_id = ? and user_id = ?`, [
        nextDigestAt(hour, prefs.timeZone, now),
        row.tenant_id,
        row.user_id,
      ]);
    }
    return planned;
  });
}

const words = {
  en: {
    subject: (n: number) => `Your open approvals: ${n} ${n === 1 ? 'task' : 'tasks'}`,
    title: (day: string) => `Daily digest, ${day}`,
    intro: (n: number) =>
      `${n} ${n === 1 ? 'task is' : 'tasks are'} waiting for you. Approve or reject each by its number below, or open your inbox.`,
    from: 'from',
    due: 'due',
    claim: 'open for claiming: claim it in the console',
    approve: 'Approve',
    reject: 'Reject',
    inbox: 'Open the inbox',
    more: (n: number) => [`…`, `${n} more in your inbox`] as [string, string],
  },
  'zh-CN': {
    subject: (n: number) => `您有 ${n} 项待办审批`,
    title: (day: string) => `每日待办汇总（${day}）`,
    intro: (n: number) => `共有 ${n} 项任务等待您处理。可按下方编号同意或驳回，也可打开待办列表。`,
    from: '发起人',
    due: '截止',
    claim: '待认领：请在控制台中认领',
    approve: '同意',
    reject: '驳回',
    inbox: '打开待办',
    more: (n: number) => [`…`, `另有 ${n} 项，见待办列表`] as [string, string],
  },
} satisfies Record<Locale, unknown>;

export interface DigestOptions {
  config: Config;
  orm: Orm;
  em: EntityManager;
  tenantId: string;
  userId: string;
  locale: Locale;
  /** The user's time zone for due dates. */
  timeZone: string;
  day: string;
  /** Where the links go (`email`, `slack`, …). */
  via: string;
  /** Links minted by an earlier attempt, by task id: a resend carries the same links. */
  links: Record<string, string>;
}

/** The digest's message (null when the user has no open task), and the links it carries by task id. */
export async function renderDigest(
  o: DigestOptions,
): Promise<{ message: Message | null; links: Record<string, string> }> {
  const [user] = await o.em.execute(`select roles, dept_id from users where tenant_id = ? and id = ?`, [
    o.tenantId,
    o.userId,
  ]);
  const where = todoWhere(o.tenantId, {
    userId: o.userId,
    roles: Array.isArray(user?.roles) ? user.roles : [],
    deptId: user?.dept_id ?? null,
  });
  const [{ n }] = await o.em.execute(`select count(*)::int as n from tasks x ${where}`, where.params);
  if (!n) return { message: null, links: o.links };
  const tasks = await o.em.execute(
    `select x.id, x.name, x.status, x.due_date, i.process_name, i.business_key, coalesce(u.display_name, i.initiator_id) as initiator
       from tasks x
       join instances i on i.tenant_id = x.tenant_id and i.id = x.instance_id
       left join users u on u.tenant_id = i.tenant_id and u.id = i.initiator_id
       ${where}
      order by x.due_date asc nulls last, x.create_time, x.id
      limit ${DIGEST_TASKS}`,
    where.params,
  );
  const w = words[o.locale];
  const links: Record<string, string> = {};
  const facts: Message['facts'] = [];
  const actions: Message['actions'] = [];
  for (const [i, t] of tasks.entries()) {
    const no = i + 1;
    const details = [
      t.name,
      `${w.from} ${t.initiator}`,
      ...(t.due_date ? [`${w.due} ${formatWhen(new Date(t.due_date), o.locale, o.timeZone)}`] : []),
    ];
    const link =
      t.status === 'active'
        ? await mintSystemLink(o, {
            tenantId: o.tenantId,
            taskId: t.id,
            userId: o.userId,
            via: o.via,
            reuse: o.links[t.id] ?? null,
          })
        : null;
    if (!link) details.push(w.claim);
    facts.push([`${no}. ${t.process_name}${t.business_key ? ` ${t.business_key}` : ''}`, details.join(' · ')]);
    if (link) {
      links[t.id] = link.linkId;
      const page = `${publicUrl(o.config)}/l/${link.token}`;
      actions.push(
        { label: `${w.approve} ${no}`, url: `${page}?action=approve`, style: 'primary' },
        { label: `${w.reject} ${no}`, url: `${page}?action=reject`, style: 'danger' },
      );
    }
  }
  if (n > tasks.length) facts.push(w.more(n - tasks.length));
  actions.push({ label: w.inbox, url: `${publicUrl(o.config)}/inbox/todo`, style: 'default' });
  return {
    message: withBodies({ subject: w.subject(n), title: w.title(o.day), intro: w.intro(n), facts, actions }),
    links: { ...o.links, ...links },
  };
}
