// The notification set-up's words beside the console's (`t.notifyAdmin.*`, `t.admin.*`), in the chosen language.
import { featureWords } from '../../../i18n/feature';
import { en } from './en';

export const t = await featureWords(en, { 'zh-CN': async () => (await import('./zh-CN')).zhCN });
