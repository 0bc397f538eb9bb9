// The languages the service speaks: the console, the API's words and the messages it sends.
export const LOCALES = ['en', 'zh-CN'] as const;
export type Locale = (typeof LOCALES)[number];
