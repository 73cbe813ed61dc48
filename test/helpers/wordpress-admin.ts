import type { Page } from 'playwright-core';

/** The site's administrator, as typed into the installer. */
const ADMIN = { user: 'owner', password: 'Askbox-owner-pass-4719', email: 'owner@example.com' };

/** The permalink choices on Settings → Permalinks used here, by their labels. */
export type Permalinks = 'Plain' | 'Post name';

/**
 * wp-admin/install.php as a new site owner walks it: the language (when translations are installed), then the
 * site's title and the administrator, then logs in.
 */
export async function installWordPress(page: Page, url: string): Promise<void> {
  await page.goto(`${url}/wp-admin/install.php`);
  if (await page.locator('#language').isVisible()) await page.locator('#language-continue').click();
  await page.getByLabel('Site Title').fill('Askbox test site');
  await page.getByLabel('Username').fill(ADMIN.user);
  await page.locator('#pass1').fill(ADMIN.password);
  await page.getByLabel('Your Email').fill(ADMIN.email);
  await page.getByRole('button', { name: 'Install WordPress' }).click();
  await page.getByRole('heading', { name: 'Success!' }).waitFor();
  await page.getByRole('link', { name: 'Log In' }).click();
  await submitLogin(page, { login: ADMIN.user, password: ADMIN.password });
}

/**
 * Fills and sends wp-login.php's form, on screen in `page`; resolves once WordPress has let the user in (its admin
 * bar shows). WordPress focuses and selects the username field 200 ms after the form is parsed
 * (`wp_attempt_focus`), and Playwright fills a field in two steps (it focuses the field, then sends the text), far
 * apart on a busy machine: a fill under way as that focus comes types the password over the username, and the login
 * fails with an empty password. The form is filled once WordPress's focus has come.
 */
async function submitLogin(page: Page, user: { login: string; password: string }): Promise<void> {
  await page.waitForFunction(() => document.activeElement?.id === 'user_login');
  await page.locator('#user_login').fill(user.login);
  await page.locator('#user_pass').fill(user.password);
  await page.locator('#wp-submit').click();
  await page.locator('#wpadminbar').waitFor();
}

/** Plugins → Activate, for the plugin named `name`; resolves on WordPress's "Plugin activated." */
export async function activatePlugin(page: Page, url: string, name: string): Promise<void> {
  await page.goto(`${url}/wp-admin/plugins.php`);
  await page.getByRole('link', { name: `Activate ${name}` }).click();
  await page.getByText('Plugin activated.').waitFor();
}

/** Settings → Permalinks: picks `choice` and saves. */
export async function setPermalinks(page: Page, url: string, choice: Permalinks): Promise<void> {
  await page.goto(`${url}/wp-admin/options-permalink.php`);
  await page.getByLabel(choice, { exact: true }).check();
  await page.locator('#submit').click();
  await page.getByText('Permalink structure updated.').waitFor();
}

/**
 * A settings page of the Settings menu, reached through the menu, filled by its fields' labels (text fields and
 * selects) and saved; resolves on WordPress's "Settings saved."
 */
export async function saveSettings(page: Page, url: string, menu: string, fields: Record<string, string>) {
  await page.goto(`${url}/wp-admin/options-general.php`);
  await page.locator('#menu-settings').getByRole('link', { name: menu, exact: true }).click();
  for (const [label, value] of Object.entries(fields)) {
    const field = page.getByLabel(label, { exact: true });
    if ((await field.evaluate((element) => element.tagName)) === 'SELECT') await field.selectOption(value);
    else await field.fill(value);
  }
  await page.getByRole('button', { name: 'Save Changes' }).click();
  await page.getByText('Settings saved.').waitFor();
}

/** wp-login.php as a user signs in; resolves once WordPress has let them in (its admin bar shows). */
export async function logIn(page: Page, url: string, user: { login: string; password: string }): Promise<void> {
  await page.goto(`${url}/wp-login.php`);
  await submitLogin(page, user);
}
