/**
 * Forms never strand anyone: every form where a person types is sent in real Chromium with one field
 * the server refuses (test/helpers/form-cases.ts). The page comes back with every other typed value
 * in place, the bad field marked with a sentence beside it, and focus on the error summary at the top
 * of the form, which links to the bad field. Needs `npm run build`.
 */
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startE2E, type E2E } from '../helpers/e2e.ts';
import { FORM_CASES, type FormCase } from '../helpers/form-cases.ts';

let e: E2E;
const contexts: Partial<Record<FormCase['as'], BrowserContext>> = {};

beforeAll(async () => {
  e = await startE2E({ steward: true });
  // One person who governs and stewards, so every form renders for them.
  await e.t.app.civitas.db.query('update sovereigns set uniqueness_verified_at = $1', [
    e.t.clock.now().toISOString(),
  ]);
  contexts.anonymous = await e.context({ width: 390, axe: false });
  contexts.sovereign = await e.context({ width: 390, axe: false, as: e.steward });
  contexts.steward = contexts.sovereign;
}, 180_000);

afterAll(async () => e?.close());

/** Sets a control's value as typing would, past its client-side limits (the server is under test). */
async function fill(page: Page, c: FormCase) {
  const form = page.locator(`form[action="${c.action}"]`).first();
  for (const [name, value] of Object.entries(c.fill)) {
    await form.evaluate(
      (f: HTMLFormElement, [n, v]) => {
        const controls = [...f.querySelectorAll<HTMLInputElement>(`[name="${n}"]`)].filter(
          (e) => e.type !== 'hidden',
        );
        for (const control of controls) {
          if (control.type === 'radio' || control.type === 'checkbox') control.checked = control.value === v;
          else control.value = v;
        }
      },
      [name, value] as const,
    );
  }
  await form.evaluate((f: HTMLFormElement) => {
    f.noValidate = true;
    (window as unknown as { before: boolean }).before = true;
  });
  await form.locator('button[type="submit"]').first().click();
  // The 303 back to the page is a new document: the marker set above is gone.
  await page.waitForFunction(() => !(window as unknown as { before?: boolean }).before);
  await page.waitForLoadState('load');
}

interface Returned {
  focused: string;
  values: Record<string, string>;
  invalid: string[];
  links: string[];
  beside: string;
}

/** What came back: the focused element, each field's value, which are marked, the summary's links. */
function returned(page: Page, c: FormCase): Promise<Returned> {
  return page
    .locator(`form[action="${c.action}"]`)
    .first()
    .evaluate((f: HTMLFormElement, names: string[]) => {
      const values: Record<string, string> = {};
      const invalid: string[] = [];
      let beside = '';
      for (const name of names) {
        const controls = [...f.querySelectorAll<HTMLInputElement>(`[name="${name}"]`)].filter(
          (e) => e.type !== 'hidden',
        );
        const picked = controls.find((e) => (e.type === 'radio' ? e.checked : true));
        values[name] = picked && picked.type !== 'radio' ? picked.value : (picked?.value ?? '');
        if (controls.some((e) => e.getAttribute('aria-invalid') === 'true')) {
          invalid.push(name);
          const described = controls[0]!.getAttribute('aria-describedby') ?? '';
          beside = described
            .split(' ')
            .map((id) => document.getElementById(id))
            .filter((e) => e?.classList.contains('field-error'))
            .map((e) => e?.textContent?.trim() ?? '')
            .join(' ');
        }
      }
      const summary = f.querySelector('.error-summary');
      const links = [...(summary?.querySelectorAll('a[href^="#"]') ?? [])].map((a) => {
        const target = document.getElementById(a.getAttribute('href')!.slice(1));
        return target?.getAttribute('name') ?? '';
      });
      const active = document.activeElement;
      return {
        focused: active && summary && active === summary ? 'summary' : (active?.outerHTML.slice(0, 80) ?? ''),
        values,
        invalid,
        links,
        beside,
      };
    }, Object.keys(c.fill));
}

describe('every form keeps what was typed and says what to fix', () => {
  it.each(FORM_CASES.map((c) => [`${c.path} ${c.action} (${c.as}${c.bad ? `, bad ${c.bad}` : ''})`, c]))(
    '%s',
    async (_name, c) => {
      const page = await contexts[c.as]!.newPage();
      try {
        await page.goto(e.base + c.path);
        await fill(page, c);
        const back = await returned(page, c);
        expect(back.focused, page.url() + (await page.locator('main').innerText()).slice(0, 600)).toBe(
          'summary',
        );
        for (const [name, value] of Object.entries(c.fill)) {
          if (name !== c.bad) expect(back.values[name], name).toBe(value);
        }
        if (c.bad) {
          expect(back.invalid).toEqual([c.bad]);
          expect(back.links).toContain(c.bad);
          expect(back.beside).toMatch(/^[A-Z].*\.$/);
          expect(back.values[c.bad], 'the refused value comes back too').toBe(c.fill[c.bad]);
        }
        // The banner speaks to people: no JSON field names.
        expect(await page.locator('.error-summary').first().innerText()).not.toMatch(/\bissues\b|return_to/);
      } finally {
        await page.close();
      }
    },
    30_000,
  );
});
