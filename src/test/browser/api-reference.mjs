// The API reference page in a real headless browser (Debian's Chromium through playwright-core):
// opens /q/swagger-ui/ on a running service, authorizes with a token, runs GET /ring and
// POST /pastes with "Try it out", waits for their live answers in the page and saves a screenshot.
// Every request must go to the service's own origin and succeed; no request is stubbed.
//
//   node src/test/browser/api-reference.mjs BASE_URL TOKEN SCREENSHOT_PATH
// Prints one JSON line: {"ring": status, "paste": status, "requests": n} or exits 1 with the failures.
import { chromium } from 'playwright-core';

const [base, token, screenshot] = process.argv.slice(2);
if (!base || !token || !screenshot) {
  console.error('usage: api-reference.mjs BASE_URL TOKEN SCREENSHOT_PATH');
  process.exit(2);
}
const origin = new URL(base).origin;
const failures = [];
let requests = 0;

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  // No calls home: this machine, like many clusters, has no internet.
  args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
    '--disable-component-update', '--disable-sync'],
});
try {
  const page = await browser.newPage({ viewport: { width: 1280, height: 1400 } });
  page.on('request', (r) => {
    requests++;
    if (new URL(r.url()).origin !== origin && !r.url().startsWith('data:')) {
      failures.push(`request outside the service: ${r.url()}`);
    }
  });
  page.on('requestfailed', (r) => failures.push(`request failed: ${r.url()} ${r.failure()?.errorText}`));
  page.on('response', (r) => {
    // The page's own assets must load; the API calls are judged below by what the page shows.
    if (r.status() >= 400 && new URL(r.url()).pathname.startsWith('/q/')) {
      failures.push(`asset ${r.url()} answered ${r.status()}`);
    }
  });
  page.on('console', (m) => {
    if (m.type() === 'error') failures.push(`console error: ${m.text()}`);
  });
  page.on('pageerror', (e) => failures.push(`page error: ${e.message}`));

  await page.goto(`${base}/q/swagger-ui/`, { waitUntil: 'networkidle' });
  await page.locator('.information-container .title').waitFor();

  // Authorize: the bearer scheme's dialog takes the JWT itself.
  await page.locator('.auth-wrapper button.authorize').click();
  await page.locator('.modal-ux input[type=text], .modal-ux input[type=password]').first().fill(token);
  await page.locator('.modal-ux .auth-btn-wrapper button.authorize').click();
  await page.locator('.modal-ux .auth-btn-wrapper button.btn-done, .modal-ux button.close-modal').first().click();

  const ring = await tryIt(page, 'get', '/ring');
  const paste = await tryIt(page, 'post', '/pastes');
  await page.locator('.opblock-post .live-responses-table').first().scrollIntoViewIfNeeded();
  await page.screenshot({ path: screenshot, fullPage: false });

  if (ring !== '200') failures.push(`GET /ring answered ${ring} in the page`);
  if (paste !== '201') failures.push(`POST /pastes answered ${paste} in the page`);
  if (!failures.length) {
    console.log(JSON.stringify({ ring: Number(ring), paste: Number(paste), requests }));
  }
} catch (e) {
  failures.push(`the page did not get there: ${e.message.split('\n')[0]}`);
} finally {
  if (failures.length) {
    console.error(failures.join('\n'));
    process.exitCode = 1;
  }
  await browser.close();
}

/** Expands one operation, presses "Try it out" and "Execute" (the documented example as the body), returns the live status. */
async function tryIt(page, method, path) {
  const block = page.locator(`.opblock-${method}`, { has: page.locator(`.opblock-summary-path[data-path="${path}"]`) }).first();
  await block.locator('.opblock-summary').first().click();
  await block.locator('button.try-out__btn').click();
  await block.locator('button.execute').click();
  // The "Server response" table appears only with a live answer (not the documented responses).
  const status = block.locator('.live-responses-table .response .response-col_status').first();
  await status.waitFor({ timeout: 15000 });
  return (await status.innerText()).trim().split(/\s+/)[0];
}
