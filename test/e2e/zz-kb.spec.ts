import { afterAll, beforeAll, it } from 'vitest';
import { startE2E, W } from './harness';
import { PHONE } from './screen';
let e2e: Awaited<ReturnType<typeof startE2E>>;
beforeAll(async () => { e2e = await startE2E(); });
afterAll(() => e2e?.close());
it('kb', async () => {
  const { page } = await e2e.open('/overflow.html', PHONE);
  await page.locator(W.launcher).waitFor();
  const probe = () => page.evaluate(() => {
    const d = document.createElement('div'); d.style.cssText = 'position:fixed;padding-bottom:env(keyboard-inset-height, 7px);padding-top:env(keyboard-inset-top, 7px)'; document.body.append(d);
    const cs = getComputedStyle(d); const out = [cs.paddingBottom, cs.paddingTop]; d.remove();
    const vk = (navigator as any).virtualKeyboard;
    return JSON.stringify({ out, vk: !!vk, overlays: vk?.overlaysContent, rect: vk?.boundingRect, ev: (window as any).__ev, vv: [visualViewport!.width, visualViewport!.height] });
  });
  console.log('before', await probe());
  await page.evaluate(() => { const vk = (navigator as any).virtualKeyboard; (window as any).__ev = 0; vk?.addEventListener('geometrychange', () => (window as any).__ev++); });
  const cdp = await page.context().newCDPSession(page);
  try { await cdp.send('Emulation.setVirtualKeyboardGeometryOverride' as any, { keyboardRect: { x: 0, y: 544, width: 390, height: 300 } }); console.log('sent ok'); } catch (e) { console.log('err', String(e)); }
  await page.waitForTimeout(300);
  console.log('override', await probe());
  await page.evaluate(() => { (navigator as any).virtualKeyboard.overlaysContent = true; });
  await page.waitForTimeout(300);
  console.log('overlays', await probe());
}, 60000);
