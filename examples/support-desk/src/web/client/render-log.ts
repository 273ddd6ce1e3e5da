/**
 * Draws the conversation into the page's log: one `<article>` per message, one line per part, and
 * only what changed is touched (a streaming text grows in place), so the live region announces new
 * text rather than the whole conversation again.
 */
import { answeredAfter, describePart, shownParts, type PartLine } from './describe-part.js';
import type { DeskMessage } from './desk-message.js';

function article(message: DeskMessage): HTMLElement {
  const element = document.createElement('article');
  element.dataset['id'] = message.id;
  element.className = `message ${message.role}`;
  const heading = document.createElement('h3');
  heading.className = 'visually-hidden';
  heading.textContent = message.role === 'user' ? 'You wrote' : 'The desk';
  const parts = document.createElement('div');
  parts.className = 'parts';
  element.append(heading, parts);
  return element;
}

function line(part: PartLine): HTMLElement {
  const element = document.createElement('p');
  element.className = `part ${part.kind}`;
  element.dataset['kind'] = part.kind;
  return element;
}

function renderLines(container: Element, lines: readonly PartLine[]): void {
  lines.forEach((part, i) => {
    let element = container.children[i] as HTMLElement | undefined;
    if (!element || element.dataset['kind'] !== part.kind) {
      const fresh = line(part);
      if (element) element.replaceWith(fresh);
      else container.append(fresh);
      element = fresh;
    }
    if (element.textContent !== part.text) element.textContent = part.text;
    if (part.status === undefined) delete element.dataset['status'];
    else if (element.dataset['status'] !== part.status) element.dataset['status'] = part.status;
  });
  while (container.children.length > lines.length) container.lastElementChild?.remove();
}

/** Brings `log` up to date with `messages`. */
export function renderLog(log: HTMLElement, messages: readonly DeskMessage[]): void {
  const existing = new Map<string, HTMLElement>();
  for (const child of Array.from(log.children) as HTMLElement[]) existing.set(child.dataset['id'] ?? '', child);
  let previous: Element | null = null;
  messages.forEach((message, index) => {
    const element = existing.get(message.id) ?? article(message);
    existing.delete(message.id);
    const expected: Element | null = previous ? previous.nextElementSibling : log.firstElementChild;
    if (expected !== element) log.insertBefore(element, expected);
    const answered = answeredAfter(messages, index);
    const lines = shownParts(message.parts).flatMap((p) => describePart(p, answered) ?? []);
    renderLines(element.querySelector('.parts') as Element, lines);
    previous = element;
  });
  for (const stale of existing.values()) stale.remove();
}
