import type { SessionSummary } from '../view/session-summary.js';
import { statusColour, type Paint } from './ansi.js';

/** `skein sessions` as a table, newest first. */
export function renderSessions(sessions: readonly SessionSummary[], paint: Paint): string {
  if (sessions.length === 0) return 'No sessions here.\n';
  const lines = sessions.map((s) => {
    const runs = s.orchestrators.map((o) => `${o.type} ${o.id} ${statusColour(paint, o.status)(o.status)}`).join(', ');
    const agents =
      s.agents.length > 0
        ? `${s.agents.length} agent${s.agents.length === 1 ? '' : 's'} (${s.agents.slice(0, 4).join(', ')}${s.agents.length > 4 ? ', …' : ''})`
        : 'no agents';
    const tokens = s.tokens === undefined ? '' : `  ${s.tokens} tokens`;
    const problem = s.problem ? `  ${paint.red(`! ${s.problem}`)}` : '';
    return `${paint.bold(s.id)}  ${paint.dim(s.type)}  ${s.updatedAt ?? '-'}\n  ${agents}${runs ? `; ${runs}` : ''}${tokens}${problem}`;
  });
  return `${lines.join('\n')}\n`;
}
