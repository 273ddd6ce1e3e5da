/** The customer page's smaller pieces: the list of their conversations, the budget line, error text. */

export interface ConversationEntry {
  id: string;
  createdAt: string;
  title: string;
}

/** The element with `id` (the page has it). */
export function byId<T extends HTMLElement = HTMLElement>(id: string): T {
  return document.getElementById(id) as T;
}

/** The customer's conversations as links (`?c=<id>`), the open one marked. */
export function showConversations(list: readonly ConversationEntry[], current: string): void {
  const items = list.map((c) => {
    const link = document.createElement('a');
    link.href = `?c=${encodeURIComponent(c.id)}`;
    link.textContent = c.title || c.id;
    if (c.id === current) link.setAttribute('aria-current', 'page');
    const item = document.createElement('li');
    item.append(link);
    return item;
  });
  byId('conversations').replaceChildren(...items);
}

let lastSpent: number | undefined;

const calls = (n: number): string => `${n} model call${n === 1 ? '' : 's'}`;

/** What the conversation spent of its budget (in this server process) and what the last answer took; nothing before it spent any. */
export async function showBudget(conversationId: string): Promise<void> {
  const response = await fetch(`/desk/api/conversations/${encodeURIComponent(conversationId)}/budget`);
  if (!response.ok) return;
  const { limits, spent } = (await response.json()) as {
    limits: { totalTokens?: number };
    spent: { totalTokens: number; modelCalls: number };
  };
  const turn = lastSpent === undefined ? '' : ` (the last answer: ${spent.totalTokens - lastSpent})`;
  lastSpent = spent.totalTokens;
  byId('budget').textContent =
    spent.modelCalls === 0
      ? ''
      : `Budget: ${spent.totalTokens} of ${limits.totalTokens ?? '∞'} tokens spent in ${calls(spent.modelCalls)}${turn}.`;
}

/** What went wrong, in words: the server's problem detail when it sent one. */
export function problemText(error: Error): string {
  const body = (error as { responseBody?: unknown }).responseBody;
  if (typeof body === 'string') {
    try {
      const problem = JSON.parse(body) as { detail?: unknown };
      if (typeof problem.detail === 'string') return problem.detail;
    } catch {
      // not a problem document
    }
  }
  return error.message;
}
