// Debian's chromium driven by playwright-core (vendor browser downloads do not work here), for the
// browser tests and `npm run bench:ui`: headless, without the background services that only add noise.
import { chromium, type Browser } from 'playwright-core';

export function launchChromium(executablePath: string): Promise<Browser> {
  return chromium.launch({
    executablePath,
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--disable-dev-shm-usage',
    ],
  });
}
