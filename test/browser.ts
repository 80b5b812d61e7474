/** Opens report pages in headless Chromium (Debian's package) for the report tests. */
import { existsSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import puppeteer, { type Browser } from 'puppeteer-core';
import { READY_FLAG } from '../cli/report.ts';

/** Where the Chromium binary should be: env PHIT_CHROMIUM, else Debian's /usr/bin/chromium. */
export const chromiumWanted = process.env.PHIT_CHROMIUM || '/usr/bin/chromium';

/** The Chromium binary, or null when it is not there. */
export function chromiumPath(): string | null {
  return existsSync(chromiumWanted) ? chromiumWanted : null;
}

/** Whether a missing browser must fail the tests (PHIT_REQUIRE_BROWSER=1) instead of skipping them. */
export const browserRequired = process.env.PHIT_REQUIRE_BROWSER === '1';

/** Launches headless Chromium (no sandbox: the tests may run as root). */
export function launchBrowser(executablePath: string): Promise<Browser> {
  return puppeteer.launch({
    executablePath,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--no-first-run'],
  });
}

/** What a page showed: requests other than the file, console and page errors, and each chart's drawing. */
export interface PageCheck {
  readonly foreignRequests: string[];
  readonly errors: string[];
  readonly state: { charts: number; drawn: number; errors: string[] };
  /**
   * Per chart container: its id, whether it holds a canvas, how many pixels its canvases paint
   * (not transparent, not white), how many of those are coloured (not grey: data, not axes or
   * text), and the pixels of one canvas.
   */
  readonly charts: { id: string; canvas: boolean; painted: number; coloured: number; pixels: number }[];
}

/** Loads `file` with every other request refused, waits for the page's ready flag and reads back each chart's canvas. */
export async function checkPage(browser: Browser, file: string): Promise<PageCheck> {
  const url = pathToFileURL(file).href;
  const page = await browser.newPage();
  const foreignRequests: string[] = [];
  const errors: string[] = [];
  try {
    await page.setViewport({ width: 1200, height: 900 });
    await page.setRequestInterception(true);
    page.on('request', (req) => {
      if (req.url() === url) void req.continue();
      else {
        foreignRequests.push(req.url());
        void req.abort();
      }
    });
    page.on('console', (m) => {
      if (m.type() === 'error') errors.push(`console: ${m.text()}`);
    });
    page.on('pageerror', (e) => errors.push(`page: ${e instanceof Error ? e.message : String(e)}`));
    page.on('requestfailed', (r) => {
      if (r.url() === url) errors.push(`failed to load ${r.url()}`);
    });
    await page.goto(url, { waitUntil: 'load', timeout: 0 });
    // no time limit: a busy host renders later, it does not fail the test
    await page.waitForFunction(`window.${READY_FLAG} !== undefined`, { timeout: 0 });
    const state = (await page.evaluate(`window.${READY_FLAG}`)) as PageCheck['state'];
    // a string, not a function: the test transpiler may decorate functions with helpers the page lacks
    const charts = (await page.evaluate(READ_CHARTS)) as PageCheck['charts'];
    return { foreignRequests, errors, state, charts };
  } finally {
    await page.close();
  }
}

// echarts may draw on several stacked canvases (heat maps use a separate progressive layer): read them all
const READ_CHARTS = `[...document.querySelectorAll('.chart')].map((el) => {
  const canvases = [...el.querySelectorAll('canvas')];
  let painted = 0;
  let coloured = 0;
  let pixels = 0;
  for (const canvas of canvases) {
    const d = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
    pixels = Math.max(pixels, d.length / 4);
    for (let i = 0; i < d.length; i += 4) {
      if (d[i + 3] === 0) continue;
      if (d[i] < 240 || d[i + 1] < 240 || d[i + 2] < 240) painted++;
      if (Math.max(d[i], d[i + 1], d[i + 2]) - Math.min(d[i], d[i + 1], d[i + 2]) > 60) coloured++;
    }
  }
  return { id: el.id, canvas: canvases.length > 0, painted, coloured, pixels };
})`;

/** The chart data a report page carries (its JSON block), as renderReport wrote them. */
export function chartsOf(html: string): { kind: string; title: string; [k: string]: unknown }[] {
  const m = /<script type="application\/json" id="phit-charts">([\s\S]*?)<\/script>/.exec(html);
  if (!m) throw new Error('no chart data in the page');
  return JSON.parse(m[1]!) as { kind: string; title: string; [k: string]: unknown }[];
}
