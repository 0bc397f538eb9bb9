// The picker's words in each language: small enough to ride with the component, so every feature
// that names people gets them without another catalogue.
import { locale, type Locale } from '../i18n';
import type { PeopleKind } from './people';

const en = {
  search: {
    user: 'Search by name, username, email or pinyin',
    role: 'Search roles by name or key',
    dept: 'Search departments by name',
  } as Record<PeopleKind, string>,
  recent: 'Recent',
  results: 'Results',
  more: 'Show more',
  searching: 'Searching…',
  none: 'Nothing found',
  count: (shown: number, total: number) => `${shown} of ${total} shown`,
  remove: (name: string) => `Remove ${name}`,
  selected: (label: string) => `${label}: chosen`,
  missing: 'not in the directory',
  typed: (id: string) => `Use “${id}”`,
  typeIds: 'Type an id and press Enter',
  picked: (name: string) => `${name} chosen`,
  removed: (name: string) => `${name} removed`,
};

const zhCN: typeof en = {
  search: {
    user: '按姓名、用户名、邮箱或拼音搜索',
    role: '按名称或编码搜索角色',
    dept: '按名称搜索部门',
  },
  recent: '最近选择',
  results: '搜索结果',
  more: '显示更多',
  searching: '正在搜索…',
  none: '没有找到',
  count: (shown, total) => `共 ${total} 个，已显示 ${shown} 个`,
  remove: (name) => `移除 ${name}`,
  selected: (label) => `${label}：已选`,
  missing: '目录中不存在',
  typed: (id) => `使用“${id}”`,
  typeIds: '输入 ID 后按回车',
  picked: (name) => `已选择 ${name}`,
  removed: (name) => `已移除 ${name}`,
};

const catalogues: Record<Locale, typeof en> = { en, 'zh-CN': zhCN };
export const words = catalogues[locale];
