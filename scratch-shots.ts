import { createTestApp } from './test/helpers/app.ts';
import { launchBrowser } from './test/helpers/browser.ts';
import { freePort } from './test/helpers/ports.ts';
const port = await freePort();
const base = `http://127.0.0.1:${port}`;
const t = await createTestApp({ site: true, config: { origin: base } });
await t.app.listen({ port, host: '127.0.0.1' });
for (let i = 0; i < 12; i++) await t.app.inject({ method: 'POST', url: '/api/agent/imprint', payload: { agent: `shot-${i % 3}`, body: `Shot ${i}` } });
const browser = await launchBrowser();
const page = await (await browser.newContext({ viewport: { width: 390, height: 844 } })).newPage();
await page.goto(`${base}/initiate`);
await page.getByRole('button', { name: 'Cross' }).click();
await page.waitForLoadState('load');
await page.locator('.key-tools').scrollIntoViewIfNeeded();
await page.screenshot({ path: '/tmp/site-shots/initiate.png' });
for (const p of ['/ledger', '/metabolism', '/vitals/changes']) {
  await page.goto(`${base}${p}`);
  const fig = page.locator('figure.chart').first();
  if (await fig.count()) await fig.screenshot({ path: `/tmp/site-shots${p.replace(/\//g, '_')}.png` });
  else await page.screenshot({ path: `/tmp/site-shots${p.replace(/\//g, '_')}.png` });
}
const card = await fetch(`${base}/metabolism/card.svg`).then((r) => r.text());
await page.setContent(card);
await page.screenshot({ path: '/tmp/site-shots/metabolism-card.png', clip: { x: 0, y: 0, width: 390, height: 320 } });
await page.setViewportSize({ width: 620, height: 330 });
await page.screenshot({ path: '/tmp/site-shots/metabolism-card.png' });
await browser.close();
await t.close();
