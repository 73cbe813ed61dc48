import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { launch } from 'puppeteer-core';
import { Builder, Capabilities, Key } from 'selenium-webdriver';

/** Debian's Firefox ESR (WebDriver BiDi through puppeteer-core) and WebKitGTK's MiniBrowser (WebKitWebDriver). */
const FIREFOX = process.env.FIREFOX_PATH ?? '/usr/bin/firefox-esr';
const WEBKIT_DRIVER = process.env.WEBKIT_DRIVER_PATH ?? '/usr/bin/WebKitWebDriver';
const MINIBROWSER = process.env.MINIBROWSER_PATH ?? '/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser';

/** The keys a walk presses. */
type WalkKey = 'Enter' | 'Escape' | 'Tab' | 'ArrowDown';

/**
 * One browser engine as a keyboard-only visitor drives it: load a page, press keys, type into what has focus, and
 * read the page with a script. Nothing is clicked: the walk is the keyboard walk, the same in every engine.
 */
export interface Engine {
  name: string;
  goto(url: string): Promise<void>;
  /** Evaluates `expression` in the page and returns its (JSON) value. */
  read<T>(expression: string): Promise<T>;
  press(key: WalkKey): Promise<void>;
  type(text: string): Promise<void>;
  /** Sets the viewport (Firefox) or the window (WebKit) to about this size; read `innerWidth` for the outcome. */
  resize(width: number, height: number): Promise<void>;
  close(): Promise<void>;
}

/** Fails with what to install when an engine is missing (`.ci/run` installs both). */
export function requireEngines(): void {
  const missing = [
    [FIREFOX, 'firefox-esr'],
    [WEBKIT_DRIVER, 'webkit2gtk-driver'],
    ['/usr/bin/Xvfb', 'xvfb'],
  ].filter(([file]) => !existsSync(file!));
  if (missing.length)
    throw new Error(`Missing: ${missing.map(([, pkg]) => pkg).join(', ')}. Run bash .ci/run, or apt-get install them.`);
}

/** Firefox ESR, headless, over WebDriver BiDi. */
export async function launchFirefox(): Promise<Engine> {
  const browser = await launch({ browser: 'firefox', executablePath: FIREFOX, headless: true });
  const page = await browser.newPage();
  return {
    name: 'firefox',
    goto: async (url) => void (await page.goto(url, { waitUntil: 'load' })),
    read: <T>(expression: string) => page.evaluate(expression) as Promise<T>,
    press: (key) => page.keyboard.press(key),
    type: (text) => page.keyboard.type(text),
    resize: (width, height) => page.setViewport({ width, height }),
    close: () => browser.close(),
  };
}

const SELENIUM_KEYS: Record<WalkKey, string> = {
  Enter: Key.ENTER,
  Escape: Key.ESCAPE,
  Tab: Key.TAB,
  ArrowDown: Key.ARROW_DOWN,
};

/**
 * WebKitGTK's MiniBrowser in automation mode, under a private Xvfb display, through WebKitWebDriver. Its window has
 * a minimum width of about 447 px.
 */
export async function launchWebKit(): Promise<Engine> {
  const children: ChildProcess[] = [];
  const display = `:${await freeDisplay()}`;
  children.push(spawn('Xvfb', [display, '-screen', '0', '1280x900x24', '-nolisten', 'tcp'], { stdio: 'ignore' }));
  const port = await freePort();
  children.push(
    spawn(WEBKIT_DRIVER, [`--port=${port}`], { stdio: 'ignore', env: { ...process.env, DISPLAY: display } }),
  );
  const stop = () => children.forEach((child) => child.kill());
  try {
    const driver = await retry(() =>
      new Builder()
        .usingServer(`http://127.0.0.1:${port}`)
        .withCapabilities(
          new Capabilities({
            browserName: 'MiniBrowser',
            'webkitgtk:browserOptions': { binary: MINIBROWSER, args: ['--automation'] },
          }),
        )
        .build(),
    );
    return {
      name: 'webkit',
      goto: (url) => driver.get(url),
      read: <T>(expression: string) => driver.executeScript<T>(`return (${expression});`),
      press: (key) => driver.actions().sendKeys(SELENIUM_KEYS[key]).perform(),
      type: (text) => driver.actions().sendKeys(text).perform(),
      resize: async (width, height) => void (await driver.manage().window().setRect({ width, height })),
      close: async () => {
        await driver.quit().catch(() => undefined);
        stop();
      },
    };
  } catch (error) {
    stop();
    throw error;
  }
}

/** Polls `expression` in the page until it is truthy; fails after `ms` naming what it waited for. */
export async function until(engine: Engine, expression: string, ms = 15_000): Promise<void> {
  const deadline = Date.now() + ms;
  for (;;) {
    if (await engine.read<boolean>(`Boolean(${expression})`).catch(() => false)) return;
    if (Date.now() > deadline) throw new Error(`${engine.name}: timed out waiting for ${expression}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The driver takes a moment to listen after it starts. */
async function retry<T>(make: () => Promise<T>, attempts = 50): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await make();
    } catch (error) {
      if (attempt >= attempts) throw error;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** An X display number nobody holds (no lock file in /tmp). */
async function freeDisplay(): Promise<number> {
  for (let n = 90 + Math.floor(Math.random() * 400); ; n++) if (!existsSync(`/tmp/.X${n}-lock`)) return n;
}
