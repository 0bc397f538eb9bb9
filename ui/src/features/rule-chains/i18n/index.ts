// The rule chains page's words beside the console's (`t.ruleChains.*`, `t.common.*`), in the chosen language.
import { featureWords } from '../../../i18n/feature';
import { en } from './en';

export const t = await featureWords(en, { 'zh-CN': async () => (await import('./zh-CN')).zhCN });
