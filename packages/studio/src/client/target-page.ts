/**
 * One target's page: the chat (a message or answers streamed through `POST .../messages` and
 * `.../answers`), the graph lit as the run goes, the run tree, approvals in place, time travel, and
 * evaluations.
 * Everything goes through the server's public routes.
 */
import { getJson, streamTurn, type TargetInfo, type TurnEvent } from './api.js';
import { approvalsForm, type Waiting } from './approvals.js';
import { el } from './dom.js';
import { evaluationsPanel } from './evaluations.js';
import { drawGraph, type GraphView, type NodeStatus } from './graph-view.js';
import { RunTree } from './run-tree.js';
import { timeTravelPanel } from './time-travel.js';

interface Conversation {
  status: string;
  turns: { prompt: string; text?: string; status: string }[];
  interrupts: Waiting[];
}

const NODE_END: Record<string, NodeStatus> = { completed: 'completed', failed: 'failed', interrupted: 'waiting' };

/** Lights the graph from one event of the outermost orchestrator. */
function lightFrom(graph: GraphView | undefined, event: TurnEvent): void {
  if (!graph || !Array.isArray(event.path)) return;
  const [first] = event.path;
  if (event.type === 'nodeStart' && event.path.length === 0) graph.light(String(event['nodeId']), 'running');
  else if (event.type === 'nodeStop' && event.path.length === 0) {
    const node = String(event['nodeId']);
    // A node a guardrail blocked stays marked so (its stop says only `failed`).
    if (graph.statusOf(node) !== 'blocked') graph.light(node, NODE_END[String(event['status'])] ?? 'completed');
  } else if (event.type === 'interrupt' && first !== undefined) graph.light(first, 'waiting');
  else if (event.type === 'guardrailTripped' && first !== undefined) {
    const trip = event['trip'] as { guardrail?: string; reason?: string } | undefined;
    graph.light(first, 'blocked', `blocked by ${trip?.guardrail ?? 'a guardrail'}: ${trip?.reason ?? ''}`);
  }
}

/** Renders `target`'s page into `main`, on conversation `conversationId`; `go` opens another conversation. */
export async function renderTarget(
  main: HTMLElement,
  target: TargetInfo,
  conversationId: string,
  go: (conversationId: string, then?: 'continue') => void,
  then?: 'continue',
): Promise<void> {
  const base = `/v1/${target.kind}/${encodeURIComponent(target.name)}/conversations`;
  const log = el('ol', { id: 'chat', 'aria-live': 'polite', class: 'chat' });
  const status = el('p', { id: 'status', role: 'status' });
  const input = el('textarea', { id: 'message', rows: '2', required: '' });
  const send = el('button', { type: 'submit', id: 'send' }, 'Send');
  const form = el('form', { id: 'send-form' }, el('label', { for: 'message' }, 'Message'), input, send);
  const waiting = el('div', { id: 'waiting' });
  const lanes = el('div', { id: 'lanes', class: 'panel' });
  const tree = new RunTree(lanes);
  const graph = target.shape ? drawGraph(target.shape, `${target.kind} ${target.name}`) : undefined;
  const bubble = (who: string, text: string): HTMLElement => {
    const item = el('li', { class: who }, el('strong', {}, `${who}: `), text);
    log.append(item);
    return item;
  };
  const travel = graph
    ? timeTravelPanel({
        base,
        conversationId: () => conversationId,
        graph,
        openFork: async (id) => go(id, 'continue'),
        say: (text) => (status.textContent = text),
      })
    : undefined;
  const conversations = el('nav', { 'aria-label': 'Conversations', class: 'conversations' });
  const fresh = el('button', { type: 'button', id: 'new-conversation' }, 'New conversation');
  fresh.addEventListener('click', () => go(`c-${Date.now().toString(36)}`));
  main.replaceChildren(
    el(
      'section',
      { class: 'left', 'aria-labelledby': 'run-title' },
      el('h2', { id: 'run-title' }, `${target.kind}/${target.name}`),
      ...(graph ? [graph.element] : []),
      el('h3', {}, 'Run tree'),
      lanes,
      el(
        'p',
        {},
        el(
          'a',
          { id: 'inspect', href: `/studio/inspect/${encodeURIComponent(conversationId)}`, target: '_blank' },
          "Timeline and each node's conversation (the inspector, in a new tab)",
        ),
      ),
    ),
    el(
      'section',
      { class: 'right', 'aria-labelledby': 'chat-title' },
      el('h2', { id: 'chat-title' }, `Conversation ${conversationId}`),
      conversations,
      fresh,
      log,
      status,
      waiting,
      form,
      ...(travel ? [travel.element] : []),
      evaluationsPanel(target, (id) => `#/${target.kind}/${target.name}/${encodeURIComponent(id)}`),
    ),
  );

  const showWaiting = (interrupts: Waiting[]): void => {
    waiting.replaceChildren(
      ...(interrupts.length ? [approvalsForm(interrupts, (answers) => void run('answers', { answers }))] : []),
    );
  };
  const run = async (route: 'messages' | 'answers', body: unknown): Promise<void> => {
    send.disabled = true;
    waiting.replaceChildren();
    tree.reset();
    graph?.reset();
    performance.mark('studio-send');
    let live: HTMLElement | undefined;
    let firstRunning = true;
    status.textContent = 'Running…';
    try {
      await streamTurn(`${base}/${encodeURIComponent(conversationId)}/${route}`, body, (event) => {
        tree.add(event);
        lightFrom(graph, event);
        if (event.type === 'nodeStart' && firstRunning) {
          firstRunning = false;
          requestAnimationFrame(() => performance.measure('studio-first-running', 'studio-send'));
        }
        if (event.type === 'textDelta') {
          live ??= bubble('working', '');
          live.lastChild?.replaceWith(`${live.lastChild?.textContent ?? ''}${String(event['data'])}`);
        }
        if (event.type === 'turnEnd') {
          const result = event['result'] as {
            status: string;
            text: string;
            interrupts: Waiting[];
            failureReason?: string;
          };
          live?.remove();
          bubble(target.name, result.text || `(${result.status})`);
          status.textContent = `Turn ${result.status}${result.failureReason ? `: ${result.failureReason}` : ''}.`;
          showWaiting(result.interrupts);
        }
      });
    } catch (error) {
      status.textContent = `Failed: ${error instanceof Error ? error.message : String(error)}`;
    } finally {
      send.disabled = false;
      await travel?.refresh();
      await listConversations();
    }
  };
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const message = input.value.trim();
    if (!message) return;
    input.value = '';
    bubble('you', message);
    void run('messages', { message });
  });

  const listConversations = async (): Promise<void> => {
    const { conversations: list } = await getJson<{ conversations: { id: string; title: string }[] }>(base);
    conversations.replaceChildren(
      el(
        'ul',
        {},
        ...list.map((c) => {
          const link = el(
            'a',
            { href: `#/${target.kind}/${target.name}/${encodeURIComponent(c.id)}` },
            c.title || c.id,
          );
          if (c.id === conversationId) link.setAttribute('aria-current', 'page');
          return el('li', {}, link);
        }),
      ),
    );
  };

  const stored = await getJson<Conversation>(`${base}/${encodeURIComponent(conversationId)}`).catch(() => undefined);
  for (const turn of stored?.turns ?? []) {
    bubble('you', turn.prompt);
    if (turn.text || turn.status !== 'running') bubble(target.name, turn.text || `(${turn.status})`);
  }
  showWaiting(stored?.interrupts ?? []);
  await Promise.all([listConversations(), travel?.refresh()]);
  if (then === 'continue') {
    bubble('you', 'continue (the fork goes on from its step)');
    await run('messages', { message: 'continue' });
  }
}
