/**
 * What a developer does on the studio page, keyboard only (the browser test and the README's
 * screenshot script share them): send a message, answer an approval with a note, move the step
 * slider to a step, fork with a node's result edited.
 */
import type { Page } from 'playwright-core';
import { tabTo } from '../../../../examples/support-desk/src/web/test-support/browser.js';

/** How a node of the drawn graph stands (its class). */
export const nodeState = (page: Page, node: string): Promise<string | null> =>
  page.locator(`.graph [data-node="${node}"]`).getAttribute('class');

/** Tabs to `selector` and types `text`. */
async function typeAt(page: Page, selector: string, text: string): Promise<void> {
  await tabTo(page, selector);
  await page.keyboard.type(text);
}

/** Sends `message` and waits until the turn ends (or waits for an approval). */
export async function sendMessage(page: Page, message: string): Promise<void> {
  await typeAt(page, '#message', message);
  await tabTo(page, '#send');
  await page.keyboard.press('Enter');
  await page.locator('#status', { hasText: /^Turn / }).waitFor({ timeout: 30_000 });
}

/** Answers what waits (`#approve` or `#deny`) with `note`, and waits until the turn ends. */
export async function answerWith(page: Page, button: '#approve' | '#deny', note: string): Promise<void> {
  await typeAt(page, '#note-0', note);
  await tabTo(page, button);
  await page.keyboard.press('Enter');
  await page.locator('#status', { hasText: /^Turn (completed|failed)/ }).waitFor({ timeout: 30_000 });
}

/** Moves the step slider from the first step until its words match `words`; throws when none does. */
export async function rewindTo(page: Page, words: RegExp): Promise<void> {
  await tabTo(page, '#step');
  await page.keyboard.press('Home');
  const max = Number(await page.locator('#step').getAttribute('max'));
  for (let i = 0; i <= max; i++) {
    if (words.test(await page.locator('#step-words').innerText())) return;
    await page.keyboard.press('ArrowRight');
  }
  throw new Error(`No step of the history reads ${words}.`);
}

/** Replaces the chosen node's result with `result`, forks and waits until the fork's turn ends. */
export async function forkWith(page: Page, result: string): Promise<void> {
  await tabTo(page, '#fork-result');
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.type(result);
  await tabTo(page, '#fork');
  await page.keyboard.press('Enter');
  await page.waitForURL(/-fork-/);
  await page.locator('#status', { hasText: /^Turn / }).waitFor({ timeout: 30_000 });
}

/** Runs the eval set from the Evaluations panel (only the cases tagged `tags`) and waits until it is done. */
export async function runEvals(page: Page, tags: string): Promise<void> {
  await tabTo(page, '#eval-tags', 80);
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.type(tags);
  await tabTo(page, '#run-evals', 80);
  await page.keyboard.press('Enter');
  await page.locator('#eval-status', { hasText: /^(Evaluation \S+ finished|Failed)/ }).waitFor({ timeout: 180_000 });
}
