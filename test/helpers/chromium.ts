// Finds a Chromium for the report browser test without root, apt or any download at run time:
// Debian's /usr/bin/chromium when it exists, else the one bundled in the dev dependency
// @sparticuz/chromium (a brotli-compressed headless-shell build, decompressed once into a cache
// under the temp directory; nothing is downloaded: executablePath is given the package's own bin
// folder, never a URL). Version 153 is pinned on purpose: it launches and renders on Node 20
// although its engines field asks for Node 22 (npm only warns), while 143.0.4, the last release
// declaring Node 20, crashed at newPage.
//
// The bundled binary links libnss3, libnspr4 and libexpat dynamically. The package ships those
// (built for Amazon Linux 2023) in al2023.tar.br and only unpacks them on AWS; they are unpacked
// here too and put first on LD_LIBRARY_PATH, so a machine without them still launches. Its fonts
// (Open Sans) are used through a fontconfig file of our own: the package's fonts.conf names the
// fixed folder /tmp/fonts.
//
// The flags are the ones the test always used. The package's own `args` are not: they turn web
// security off (the test checks that no request leaves file:) and add --single-process, with
// which the second page of a browser fails ("Target page, context or browser has been closed").
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import chromiumPkg, { inflate } from '@sparticuz/chromium';
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

interface Candidate {
  readonly name: string;
  readonly resolve: () => Promise<{ executablePath: string; env?: NodeJS.ProcessEnv }>;
}

/**
 * Launches headless Chromium: /usr/bin/chromium if present (falling back to the bundled one if it
 * fails to start), else the one from @sparticuz/chromium. Throws, naming every attempt and why it
 * failed, when none starts: the caller must fail rather than skip.
 */
export async function launchChromium(): Promise<Browser> {
  const candidates: Candidate[] = [];
  if (existsSync(SYSTEM_CHROMIUM)) {
    candidates.push({
      name: SYSTEM_CHROMIUM,
      resolve: () => Promise.resolve({ executablePath: SYSTEM_CHROMIUM }),
    });
  }
  candidates.push({ name: 'the Chromium of @sparticuz/chromium', resolve: bundledChromium });

  const failures: string[] = [];
  for (const candidate of candidates) {
    try {
      const { executablePath, env = {} } = await candidate.resolve();
      return await chromium.launch({
        executablePath,
        args: [...FLAGS],
        // A real locale: under LANG or LC_ALL=C(.UTF-8) the headless shell reports
        // navigator.language "en-US@posix", which Intl (uPlot's number format) rejects as
        // "Invalid language tag", and --lang does not change it.
        env: { ...process.env, LC_ALL: 'en_US.UTF-8', ...env },
      });
    } catch (error) {
      failures.push(`${candidate.name}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  throw new Error(
    `no headless Chromium could be launched for the report browser test:\n${failures.join('\n')}\n` +
      `(${SYSTEM_CHROMIUM} is used when present; otherwise the browser bundled in the dev ` +
      'dependency @sparticuz/chromium, which `npm ci` installs)',
  );
}

/** The files a complete cache holds; anything missing (e.g. a temp cleaner ran) unpacks anew. */
const CACHE_FILES = ['chromium', 'libGLESv2.so', 'al2023/lib/libnss3.so', 'fonts.conf'] as const;

async function bundledChromium(): Promise<{ executablePath: string; env: NodeJS.ProcessEnv }> {
  const require = createRequire(import.meta.url);
  const packageDir = join(dirname(require.resolve('@sparticuz/chromium')), '..');
  const { version } = JSON.parse(await readFile(join(packageDir, 'package.json'), 'utf8')) as {
    version: string;
  };
  const cache = join(tmpdir(), `quanta-sparticuz-chromium-${version}`);
  if (!isComplete(cache)) {
    await unpack(join(packageDir, 'bin'), cache);
  }
  return {
    executablePath: join(cache, 'chromium'),
    env: {
      LD_LIBRARY_PATH: [join(cache, 'al2023', 'lib'), process.env.LD_LIBRARY_PATH]
        .filter((part) => part !== undefined && part !== '')
        .join(':'),
      FONTCONFIG_FILE: join(cache, 'fonts.conf'),
    },
  };
}

/**
 * Unpacks the package's archives into a fresh folder beside `cache`, then renames it to `cache`,
 * so an interrupted or concurrent run never leaves (or uses) half a browser.
 */
async function unpack(binDir: string, cache: string): Promise<void> {
  const partial = await mkdtemp(`${cache}.partial-`);
  try {
    // The package unpacks into os.tmpdir(), which Node reads from TMPDIR on every call: pointing
    // it at the fresh folder for the duration keeps the files out of the temp directory itself.
    // Nothing else runs in this test worker meanwhile.
    const savedTmpdir = process.env.TMPDIR;
    try {
      process.env.TMPDIR = partial;
      await chromiumPkg.executablePath(binDir);
      await inflate(join(binDir, 'al2023.tar.br'));
    } finally {
      if (savedTmpdir === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = savedTmpdir;
    }
    await writeFile(
      join(partial, 'fonts.conf'),
      [
        '<?xml version="1.0"?>',
        '<!DOCTYPE fontconfig SYSTEM "fonts.dtd">',
        '<fontconfig>',
        `  <dir>${join(cache, 'fonts')}</dir>`,
        `  <cachedir>${join(cache, 'fonts-cache')}</cachedir>`,
        '</fontconfig>',
        '',
      ].join('\n'),
    );
    if (!isComplete(cache)) await rm(cache, { recursive: true, force: true });
    try {
      await rename(partial, cache);
    } catch (error) {
      // Another run renamed its own complete copy into place first: use that one.
      if (!isComplete(cache)) throw error;
    }
  } finally {
    await rm(partial, { recursive: true, force: true });
  }
}

function isComplete(cache: string): boolean {
  return CACHE_FILES.every((file) => existsSync(join(cache, file)));
}
