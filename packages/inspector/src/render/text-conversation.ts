import type { AgentView } from '../view/session-view.js';
import { blockText } from '../view/message-text.js';
import type { Paint } from './ansi.js';

/** `skein show --agent <id>`: the conversation, tool calls and results folded to one line unless `full`. */
export function renderConversation(agent: AgentView, paint: Paint, full: boolean): string {
  const out: string[] = [paint.bold(`agent ${agent.id}`) + paint.dim(`  ${agent.messages.length} messages`)];
  for (const m of agent.messages) {
    const id = paint.dim(`[${m.id}]`);
    if (!m.message) {
      out.push(`${id} ${paint.red(`! ${m.problem ?? 'unreadable'}`)}`);
      continue;
    }
    const role = m.message.role === 'user' ? paint.cyan('user') : paint.yellow('assistant');
    const redacted = m.redacted ? paint.dim(' (redacted)') : '';
    const blocks = m.message.content.map((b) => blockText(b, full));
    out.push(`${id} ${role}${redacted}: ${blocks.join(full ? '\n    ' : '  ')}`);
  }
  for (const p of agent.problems) out.push(paint.red(`! ${p.where}: ${p.message}`));
  return `${out.join('\n')}\n`;
}
