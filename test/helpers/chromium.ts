// Launches Debian's Chromium (/usr/bin/chromium) for the browser tests. `npm test`'s pretest
// (.ci/ensure-debian-tools.sh) installs the Debian package `chromium` when it is missing (as
// root), or stops with the one command to run: nothing is downloaded at run time, and a missing
// browser fails the tests that need it instead of skipping them. (An npm-bundled Chromium was
// used before; the builds that launch need Node 22, this project runs on Node 20.)
//
// The flags keep Chromium off this machine's closed network (background networking, component
// updates, sync) and run it headless without a sandbox (the tests may run as root).
import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

const SYSTEM_CHROMIUM = '/usr/bin/chromium';

const FLAGS: readonly string[] = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/**
 * Launches headless Debian Chromium. Throws, saying how to install it, when it is missing or fails
 * to start: the caller must fail rather than skip.
 */
export async function launchChromium(): Promise<Browser> {
  if (!existsSync(SYSTEM_CHROMIUM)) {
    throw new Error(
      `${SYSTEM_CHROMIUM} is missing: run \`npm test\` (its pretest installs Debian's chromium as root) or \`sudo apt-get install -y chromium\``,
    );
  }
  try {
    return await chromium.launch({
      executablePath: SYSTEM_CHROMIUM,
      args: [...FLAGS],
      // A real locale: under LANG or LC_ALL=C(.UTF-8) headless Chromium may report
      // navigator.language "en-US@posix", which Intl (uPlot's number format) rejects as
      // "Invalid language tag", and --lang does not change it.
      env: { ...process.env, LC_ALL: 'en_US.UTF-8' },
    });
  } catch (error) {
    throw new Error(
      `${SYSTEM_CHROMIUM} did not start for the browser test: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
}
