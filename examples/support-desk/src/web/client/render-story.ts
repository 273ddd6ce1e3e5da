/**
 * Draws the customer's cases into the page's log: per case, what they wrote and one block for the
 * desk (decisions, the answer, what waits, a problem) with the details behind a toggle, branch by
 * branch. Only what changed is touched (a streaming answer grows in place, an open toggle stays
 * open), so the live region announces new text rather than the whole conversation again; the details
 * are not announced (`aria-live="off"`).
 */
import type { StoryCase } from './story.js';

/** One line of a case as the page shows it; `kind` is its class and `data-kind`. */
interface Line {
  kind: string;
  text: string;
}

function element<K extends keyof HTMLElementTagNameMap>(tag: K, className: string, text?: string) {
  const made = document.createElement(tag);
  made.className = className;
  if (text !== undefined) made.textContent = text;
  return made;
}

/** The desk's lines of a case, in the order they happened. */
function deskLines(story: StoryCase): Line[] {
  return [
    ...story.decisions.map((d) => ({ kind: d.approved ? 'decision approved' : 'decision denied', text: d.text })),
    ...(story.answer ? [{ kind: 'answer', text: story.answer }] : []),
    ...(story.waiting ? [{ kind: 'waiting', text: story.waiting }] : []),
    ...(story.problem ? [{ kind: 'problem', text: story.problem }] : []),
  ];
}

/** Brings `container`'s line elements up to date with `lines`. */
function renderLines(container: Element, lines: readonly Line[]): void {
  lines.forEach((line, i) => {
    let p = container.children[i] as HTMLElement | undefined;
    if (!p || p.dataset['kind'] !== line.kind) {
      const fresh = element('p', `part ${line.kind}`);
      fresh.dataset['kind'] = line.kind;
      if (p) p.replaceWith(fresh);
      else container.append(fresh);
      p = fresh;
    }
    if (p.textContent !== line.text) p.textContent = line.text;
  });
  while (container.children.length > lines.length) container.lastElementChild?.remove();
}

/** The branches that have a line to show. */
const shownBranches = (story: StoryCase) => story.details.filter((b) => b.lines.length > 0);

function renderDetails(details: HTMLDetailsElement, story: StoryCase): void {
  const shown = shownBranches(story);
  const key = JSON.stringify(shown);
  if (details.dataset['key'] === key) return;
  details.dataset['key'] = key;
  details.hidden = shown.length === 0;
  const branches = shown.map((branch) => {
    const section = element('section', 'branch');
    section.append(element('h4', 'who', branch.who));
    const list = element('ul', 'steps');
    for (const line of branch.lines) list.append(element('li', 'detail', line));
    section.append(list);
    return section;
  });
  (details.querySelector('.branches') as HTMLElement).replaceChildren(...branches);
}

function newCaseElement(index: number): HTMLElement {
  const article = element('article', 'case');
  article.dataset['case'] = String(index);
  const user = element('div', 'message user');
  user.append(element('h3', 'visually-hidden', 'You wrote'), element('div', 'lines'));
  const desk = element('div', 'message desk');
  const details = element('details', 'details');
  details.setAttribute('aria-live', 'off');
  details.append(element('summary', '', 'Details: who worked on it'), element('div', 'branches'));
  desk.append(element('h3', 'visually-hidden', 'The desk'), element('div', 'lines'), details);
  article.append(user, desk);
  return article;
}

/** Brings `log` up to date with `cases`; with none, shows `hint`. */
export function renderStory(log: HTMLElement, cases: readonly StoryCase[], hint: string): void {
  if (cases.length === 0) {
    if (!log.querySelector('.hint')) log.replaceChildren(element('p', 'hint', hint));
    return;
  }
  log.querySelector('.hint')?.remove();
  cases.forEach((story, i) => {
    let article = log.children[i] as HTMLElement | undefined;
    if (!article) log.append((article = newCaseElement(i)));
    const [user, desk] = [article.children[0] as HTMLElement, article.children[1] as HTMLElement];
    user.hidden = story.message === '';
    renderLines(
      user.querySelector('.lines') as Element,
      story.message ? [{ kind: 'message', text: story.message }] : [],
    );
    const lines = deskLines(story);
    renderLines(desk.querySelector('.lines') as Element, lines);
    renderDetails(desk.querySelector('details') as HTMLDetailsElement, story);
    desk.hidden = lines.length === 0 && shownBranches(story).length === 0;
  });
  while (log.children.length > cases.length) log.lastElementChild?.remove();
}
