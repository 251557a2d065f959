// A headless Chromium for tests that look at a page as a person would: the Chrome or Chromium that
// CHROMIUM_PATH names, else the one @sparticuz/chromium ships inside its npm package (Linux x64
// only), else a system Chrome or Chromium at a standard path.

import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import chromium from '@sparticuz/chromium';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';

const REPO = fileURLToPath(new URL('../..', import.meta.url));
const PACKAGE_DIR = join(REPO, 'node_modules', '@sparticuz', 'chromium');

const SYSTEM_BROWSERS: Partial<Record<NodeJS.Platform, string[]>> = {
  linux: [
    '/usr/bin/chromium',
    '/usr/bin/chromium-browser',
    '/usr/bin/google-chrome',
    '/usr/bin/google-chrome-stable',
    '/snap/bin/chromium',
  ],
  darwin: [
    '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome',
    '/Applications/Chromium.app/Contents/MacOS/Chromium',
  ],
  win32: ['C:\\Program Files\\Google\\Chrome\\Application\\chrome.exe'],
};

/** Chromium's own flags for a machine without a network beyond localhost and no GPU. */
const QUIET = ['--disable-quic', '--disable-gpu'];

export async function launchBrowser(): Promise<Browser> {
  const fromEnv = process.env.CHROMIUM_PATH;
  if (fromEnv && !existsSync(fromEnv)) throw new Error(`CHROMIUM_PATH names ${fromEnv}, which does not exist`);
  if (!fromEnv && process.platform === 'linux' && process.arch === 'x64') {
    return launch(await packagedChromium(), packagedArgs());
  }
  const system = fromEnv ?? SYSTEM_BROWSERS[process.platform]?.find((file) => existsSync(file));
  if (!system) {
    throw new Error(
      `No browser for ${process.platform}-${process.arch} (@sparticuz/chromium covers Linux x64 only): install Google Chrome or Chromium, or set CHROMIUM_PATH to one`,
    );
  }
  return launch(system, QUIET);
}

async function launch(executablePath: string, args: string[]): Promise<Browser> {
  try {
    // No clock of puppeteer's own (0 turns it off; pages: newPage()): Chromium starting or a CDP call
    // on a busy machine takes what it takes, and one that hangs is the test's timeout to catch.
    return await puppeteer.launch({ executablePath, args, headless: true, timeout: 0, protocolTimeout: 0 });
  } catch (error) {
    // A missing system library (libnss3 on a slim Linux) is named on a later line of the message.
    const message = (error as Error).message;
    const why = /error while loading shared libraries: \S+/.exec(message)?.[0] ?? message.split('\n')[0];
    throw new Error(
      `Chromium at ${executablePath} did not start (${why}): install what it lacks, or set CHROMIUM_PATH to a Chrome or Chromium that runs here`,
    );
  }
}

/** A new tab whose waits (navigation, selectors) have no clock of their own, as the browser's calls. */
export async function newPage(browser: Browser): Promise<Page> {
  const page = await browser.newPage();
  page.setDefaultTimeout(0);
  return page;
}

/**
 * The package's recommended flags for a container, less the two that relax the page's security
 * (the page must load as it would in a person's browser).
 */
function packagedArgs(): string[] {
  const relaxing = new Set(['--disable-web-security', '--allow-running-insecure-content']);
  return [...chromium.args.filter((arg) => !relaxing.has(arg)), ...QUIET];
}

/**
 * The package's Chromium, decompressed once per package version into node_modules/.cache (so
 * `npm ci` starts afresh). The package writes to the OS temp folder, shared by every project and
 * version, and a run stopped halfway would leave a truncated binary there; so it runs in a child
 * process whose temp folder is a private one, which is renamed into place only when complete.
 */
async function packagedChromium(): Promise<string> {
  const { version } = JSON.parse(readFileSync(join(PACKAGE_DIR, 'package.json'), 'utf8'));
  const dir = join(REPO, 'node_modules', '.cache', `sparticuz-chromium-${version}`);
  const binary = join(dir, 'chromium');
  if (existsSync(binary)) return binary;
  const partial = `${dir}.${process.pid}.partial`;
  rmSync(partial, { recursive: true, force: true });
  mkdirSync(partial, { recursive: true });
  const script = "import c from '@sparticuz/chromium'; await c.executablePath();";
  await promisify(execFile)(process.execPath, ['--input-type=module', '-e', script], {
    cwd: REPO,
    env: { ...process.env, TMPDIR: partial, TMP: partial, TEMP: partial },
  }).catch((error) => {
    rmSync(partial, { recursive: true, force: true });
    throw error;
  });
  try {
    renameSync(partial, dir);
  } catch {
    rmSync(partial, { recursive: true, force: true }); // another run got there first
  }
  return binary;
}
