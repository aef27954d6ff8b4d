/**
 * Headless Chromium for end-to-end tests (playwright-core driving the system /usr/bin/chromium).
 * Install it with `apt-get install -y chromium`; CHROMIUM_PATH overrides the location.
 */
import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Launches Chromium, failing with the fix in the message if it is not installed. */
export async function launchBrowser(): Promise<Browser> {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(
      `Chromium not found at ${CHROMIUM_PATH}: run \`apt-get install -y chromium\` or set CHROMIUM_PATH.`,
    );
  }
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: ARGS });
}

/** axe-core's browser bundle, to inject with page.addScriptTag({ path }). */
export const AXE_PATH = new URL('../../node_modules/axe-core/axe.min.js', import.meta.url).pathname;
