import { launchBrowser, loginAs, newPage } from './harness.ts';
const url = 'http://127.0.0.1:8090';
const paths = process.argv.slice(2);
const browser = await launchBrowser();
const page = await newPage(browser, 'en-US');
await loginAs(page, url, 'admin', 'Demo-admin-pass-1');
for (const p of paths) {
  await page.goto(`${url}/#${p}`);
  await page.waitForTimeout(4000);
  await page.screenshot({ path: `/tmp/shots/${p.replace(/\//g, '_')}.png` });
}
await browser.close();
