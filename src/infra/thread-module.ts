// A worker thread's module beside the file that starts it: TypeScript from source, JavaScript in
// dist/. From source the thread needs tsx too: the process may load it in its main thread only
// (scripts/tsx-main-thread.mjs), and a thread does not inherit that.

/** The URL of module `name` beside `importMetaUrl`, and the `execArgv` its thread needs. */
export function siblingThreadModule(importMetaUrl: string, name: string): { url: URL; execArgv?: string[] } {
  const fromSource = new URL(importMetaUrl).pathname.endsWith('.ts');
  return {
    url: new URL(`./${name}${fromSource ? '.ts' : '.js'}`, importMetaUrl),
    ...(fromSource ? { execArgv: ['--import', 'tsx'] } : {}),
  };
}
