// The HTML report as a user sees it, in Debian's chromium driven by playwright-core (no browser
// download). Skipped, with the reason in its name, where /usr/bin/chromium is absent.

import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STATUSES } from '../../results/verdict.js';
import { cli, realReports, type RealReport } from '../reports/real-reports.js';

// MCPSPEC_CHROMIUM points the test at another chromium (or, set to a missing path, shows the skip).
const CHROMIUM = process.env.MCPSPEC_CHROMIUM ?? '/usr/bin/chromium';
const missing = existsSync(CHROMIUM) ? undefined : `${CHROMIUM} is absent (apt-get install -y chromium)`;
if (missing) console.warn(`the HTML report browser test is skipped: ${missing}`);

describe.skipIf(missing !== undefined)(`the HTML report in chromium${missing ? ` (skipped: ${missing})` : ''}`, () => {
  let browser: Browser;
  let page: Page;
  let everything: RealReport;
  let faulted: RealReport;
  let single: string;
  let matrix: string;

  beforeAll(async () => {
    ({ everything, faulted } = await realReports());
    const out = mkdtempSync(join(tmpdir(), 'mcpspec-html-'));
    single = join(out, 'report.html');
    matrix = join(out, 'matrix.html');
    for (const [args, file] of [[[everything.file], single], [[everything.file, faulted.file], matrix]] as const) {
      const r = await cli(['report', ...args, '--format', 'html', '--out', file]);
      expect(r.code, r.err).toBe(0);
    }
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
    page = await browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('requestfailed', (r) => errors.push(`request ${r.url()}`));
    await page.goto(pathToFileURL(single).href);
    expect(errors).toEqual([]);
  }, 300_000);

  afterAll(async () => {
    await browser?.close();
  });

  it('shows the counts, era and target of the report', async () => {
    const s = everything.report.summary;
    for (const status of STATUSES) await expect(page.locator(`[data-count="${status}"]`).innerText()).resolves.toBe(String(s[status]));
    await expect(page.locator('[data-count="total"]').innerText()).resolves.toBe(String(s.total));
    await expect(page.locator('#verdict').innerText()).resolves.toBe(s.conformant ? 'CONFORMANT' : 'NONCONFORMANT');
    await expect(page.locator('#era').innerText()).resolves.toContain(everything.report.era.version);
    await expect(page.locator('#target').innerText()).resolves.toContain('server-everything');
    await expect(page.locator('#shown').innerText()).resolves.toBe(`${s.total} of ${s.total} checks shown`);
    expect(await page.locator('details.check').count()).toBe(everything.report.checks.length);
  });

  it('clicking a failed check expands its evidence, with requirement IDs and the spec link', async () => {
    const failed = everything.report.checks.find((c) => c.status === 'fail' && c.evidence.length) ?? everything.report.checks.find((c) => (c.status === 'warn' || c.status === 'untestable') && c.evidence.length);
    expect(failed, 'a check with evidence that did not pass').toBeDefined();
    const details = page.locator(`details.check[data-id="${failed!.id}"]`);
    const evidence = details.locator('.evidence').first();
    await expect(evidence.isVisible()).resolves.toBe(false);
    await details.locator('summary').click();
    await expect(details.getAttribute('open')).resolves.not.toBeNull();
    await expect(evidence.isVisible()).resolves.toBe(true);
    await expect(evidence.innerText()).resolves.toContain(failed!.evidence[0].what);
    for (const req of failed!.requirements) await expect(details.innerText()).resolves.toContain(req);
    await expect(details.locator('a.spec').getAttribute('href')).resolves.toBe(failed!.spec);
  });

  it('filtering by status hides the others; by area too; "show all" brings them back', async () => {
    const checks = everything.report.checks;
    const visible = async () => page.locator('details.check:visible').evaluateAll((els) => els.map((e) => e.getAttribute('data-status') + ' ' + e.getAttribute('data-area')));
    await page.locator('#status-filter input[value="pass"]').uncheck();
    let shown = await visible();
    expect(shown).toHaveLength(checks.filter((c) => c.status !== 'pass').length);
    expect(shown.some((x) => x.startsWith('pass '))).toBe(false);

    await page.locator('#show-problems').click();
    shown = await visible();
    expect(shown).toHaveLength(checks.filter((c) => ['fail', 'warn', 'error'].includes(c.status)).length);
    await expect(page.locator('#shown').innerText()).resolves.toBe(`${shown.length} of ${checks.length} checks shown`);

    await page.locator('#show-all').click();
    const area = checks[0].area;
    for (const a of new Set(checks.map((c) => c.area))) if (a !== area) await page.locator(`#area-filter input[value="${a}"]`).uncheck();
    shown = await visible();
    expect(shown).toHaveLength(checks.filter((c) => c.area === area).length);
    expect(shown.every((x) => x.endsWith(` ${area}`))).toBe(true);

    await page.locator('#show-all').click();
    expect(await visible()).toHaveLength(checks.length);
  });

  it('the requirements section shows the MUST rate and a row per requirement, each with its result', async () => {
    const t = everything.report.traceability!;
    await expect(page.locator('#must-rate').innerText()).resolves.toBe(`${t.must.met}/${t.must.judged} MUST requirements met (${t.must.judged ? `${Math.floor((t.must.met * 100) / t.must.judged)}%` : '–'})`);
    await page.locator('#trace-requirements summary').click();
    await expect(page.locator('#trace-requirements tbody tr').count()).resolves.toBe(t.requirements.length);
    const broken = t.requirements.find((r) => r.result === 'broken') ?? t.requirements[0];
    await expect(page.locator(`#trace-requirements tr[data-requirement="${broken.id}"]`).getAttribute('data-result')).resolves.toBe(broken.result);
  });

  it('the matrix page shows one row per report, each cell the status of that check', async () => {
    await page.goto(pathToFileURL(matrix).href);
    const rows = page.locator('#matrix tbody tr');
    await expect(rows.count()).resolves.toBe(2);
    await expect(rows.nth(0).locator('th').innerText()).resolves.toContain('everything');
    await expect(rows.nth(1).locator('th').innerText()).resolves.toContain('mcpspec-reference');
    for (const [i, r] of [everything, faulted].entries()) {
      for (const c of r.report.checks.slice(0, 12)) {
        await expect(rows.nth(i).locator(`td[data-check="${c.id}"]`).innerText()).resolves.toBe(c.status);
      }
    }
    // Requirements × implementations: a column per report, each cell that report's result.
    const trace = page.locator('#trace-matrix');
    await expect(trace.locator('thead th.impl').count()).resolves.toBe(2);
    for (const [i, r] of [everything, faulted].entries()) {
      const req = r.report.traceability!.requirements.find((q) => q.result === 'met')!;
      await expect(trace.locator(`td[data-requirement="${req.id}"]`).nth(i).getAttribute('class')).resolves.toContain('r-met');
    }
  });
});
