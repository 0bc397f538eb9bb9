// The designer's figures for `npm run bench:ui`: a 300-node process opens (navigation start to
// the drawn column, fresh context) in under 1 s, and an edit re-renders (the input event to the
// changed DOM) in under 50 ms. Measured in the browser, medians of `runs`.
import type { Browser } from 'playwright-core';
import { largeProcess } from './designer-process.js';
import { median } from './median.js';

export const OPEN_BUDGET_MS = 1000;
export const EDIT_BUDGET_MS = 50;

export async function designerFigures(opts: {
  browser: Browser;
  baseUrl: string;
  adminToken: string;
  storageState: any;
  runs: number;
}) {
  const dsl = largeProcess();
  const res = await fetch(`${opts.baseUrl}/api/v1/workflow/process-definitions`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${opts.adminToken}` },
    body: JSON.stringify({ dsl }),
  });
  const draft = ((await res.json()) as any).data;
  const opens: number[] = [];
  const renames: number[] = [];
  const inserts: number[] = [];
  for (let i = 0; i < opts.runs; i++) {
    const ctx = await opts.browser.newContext({
      storageState: opts.storageState,
      viewport: { width: 1440, height: 1000 },
    });
    const page = await ctx.newPage();
    await page.goto(`${opts.baseUrl}/admin/designer/${draft.id}`);
    await page.waitForSelector('[data-testid=flow] [data-node-id=end]');
    opens.push(Math.round(await page.evaluate(() => performance.getEntriesByName('designer-rendered')[0]!.startTime)));
    await page.click('[data-node-id=a_50] > button[aria-pressed]');
    await page.waitForSelector('#a_50-name');
    // A rename: the input event until the card shows the new name.
    renames.push(
      await page.evaluate(
        () =>
          new Promise<number>((resolve) => {
            const card = document.querySelector('[data-node-id=a_50]')!;
            const input = document.getElementById('a_50-name') as HTMLInputElement;
            const t0 = performance.now();
            new MutationObserver((_m, obs) => {
              obs.disconnect();
              resolve(performance.now() - t0);
            }).observe(card, { subtree: true, characterData: true, childList: true });
            input.value = `Renamed ${Math.random()}`;
            input.dispatchEvent(new Event('input', { bubbles: true }));
          }),
      ),
    );
    // An insertion from a "+" menu: the click until the new card is in the column.
    await page.click('[data-node-id=a_50] ~ [data-slot] button[aria-expanded]');
    inserts.push(
      await page.evaluate(
        () =>
          new Promise<number>((resolve) => {
            const flow = document.querySelector('[data-testid=flow]')!;
            const t0 = performance.now();
            new MutationObserver((_m, obs) => {
              if (!document.querySelector('[data-node-id=approver_1]')) return;
              obs.disconnect();
              resolve(performance.now() - t0);
            }).observe(flow, { subtree: true, childList: true });
            (document.querySelector('[data-kind=approver]') as HTMLButtonElement).click();
          }),
      ),
    );
    await ctx.close();
  }
  return {
    nodes: dsl.metadata.nodes.length,
    open: median(opens),
    opens,
    rename: Math.round(median(renames) * 10) / 10,
    insert: Math.round(median(inserts) * 10) / 10,
  };
}
