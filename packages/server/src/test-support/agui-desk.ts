/**
 * A desk for the AG-UI tests: the test server's agents and graphs plus a swarm `desk` (triage hands the
 * customer to refund, whose refund over 50 EUR waits for approval), served on a free loopback port,
 * with principals from an `x-user` header (`ben`, or `boss-for-ben`: the supervisor acting for ben,
 * the only one `authorizeAnswer` lets approve).
 */
import { Agent, type ModelRequest, type Principal } from '@skein/core';
import { ScriptedModel, type ScriptedTurn } from '@skein/core/testing';
import { Swarm } from '@skein/swarm';
import { HttpAgent, type BaseEvent } from '@ag-ui/client';
import type { ServerOptions } from '../index.js';
import { serve, type RunningServer } from '../serve.js';
import { refundTool, testServer, type RefundLedger } from './server-fixtures.js';

/** The refund member: refunds order 42 (80 EUR, so it waits for approval), then says what the tool said. */
function refundMemberModel(): ScriptedModel {
  const turn = (request: ModelRequest): ScriptedTurn => {
    const last = request.messages[request.messages.length - 1];
    const result = last?.content.find((b) => 'toolResult' in b);
    // The refund tool's text result (the handoff's own result is JSON).
    if (result && 'toolResult' in result && result.toolResult.content.some((c) => 'text' in c))
      return `Done: ${result.toolResult.content.map((c) => ('text' in c ? c.text : '')).join(' ')}`;
    return { text: 'Refunding order 42.', toolUses: [{ name: 'issue_refund', input: { orderId: '42', amount: 80 } }] };
  };
  return new ScriptedModel([turn], { loop: true, record: false });
}

function principalOf(request: Request): Principal | undefined {
  const user = request.headers.get('x-user');
  if (user === null) return undefined;
  const boss = /^boss-for-(.+)$/.exec(user);
  return boss ? { id: boss[1] ?? '', supervisor: true } : user;
}

/** The desk served on a free port; `stop()` when done. */
export async function serveAguiDesk(extra: Partial<ServerOptions> = {}): Promise<{
  running: RunningServer;
  ledger: RefundLedger;
  app: ReturnType<typeof testServer>['app'];
  repository: ReturnType<typeof testServer>['repository'];
}> {
  /** The swarm's refunds. */
  const ledger: RefundLedger = { refunds: [] };
  const built = testServer({
    swarms: {
      desk: ({ sessionManager }) =>
        new Swarm({
          nodes: [
            new Agent({
              name: 'triage',
              model: new ScriptedModel(
                [
                  {
                    text: 'Refunds can help.',
                    toolUses: [{ name: 'transfer_to_refund', input: { message: 'refund 42' } }],
                  },
                ],
                { loop: true, record: false },
              ),
            }),
            new Agent({ name: 'refund', model: refundMemberModel(), tools: [refundTool(ledger)] }),
          ],
          sessionManager,
        }),
    },
    authorize: (request) => principalOf(request),
    authorizeAnswer: ({ principal }) => typeof principal === 'object' && principal['supervisor'] === true,
    ...extra,
  });
  const running = await serve(built.app, { port: 0, hostname: '127.0.0.1', handleSignals: false, log: null });
  return { running, ledger, app: built.app, repository: built.repository };
}

/** An AG-UI `HttpAgent` on `/v1/<kind>/<name>/agui` of `running`, as `user`, collecting every event it sees. */
export function aguiClient(
  running: RunningServer,
  path: string,
  user: string,
  config: { threadId: string; initialMessages?: HttpAgent['messages'] },
): { agent: HttpAgent; events: BaseEvent[] } {
  const agent = new HttpAgent({ url: `${running.url}${path}`, headers: { 'x-user': user }, ...config });
  const events: BaseEvent[] = [];
  agent.subscribe({
    onEvent: ({ event }) => {
      events.push(event);
    },
  });
  return { agent, events };
}
