/**
 * The MCP server of one connection (a stdio process, or one streamable HTTP session): one tool per
 * agent, graph and swarm, named as it is served (the desk's graph: `desk`), taking
 * `{ message, conversationId?, answers? }` and answering with the turn (see tool-result.ts).
 */
import { ConfigurationError } from '@skein/core';
import { McpServer } from '@modelcontextprotocol/server';
import type { TargetKind } from '@skein/server';
import { z } from 'zod';
import type { ServeMcpOptions } from './options.js';
import type { ServerDoor } from './server-door.js';
import { callTarget } from './tool-call.js';
import { TURN_OUTPUT } from './tool-result.js';

/** The input of every tool. */
const TURN_INPUT = z.strictObject({
  message: z.string().min(1).optional().describe('The message to send (leave out when sending answers).'),
  conversationId: z
    .string()
    .regex(/^[A-Za-z0-9_.@=+-]{1,128}$/)
    .optional()
    .describe('The conversation to continue (from an earlier result); leave out to start a new one.'),
  answers: z
    .record(z.string(), z.json())
    .optional()
    .describe('Answers to what the conversation waits for, by id: { "<id>": { "approved": true, "message": "..." } }.'),
});

const KIND_WORDS: Record<TargetKind, string> = {
  agents: 'agent',
  graphs: 'graph of agents',
  swarms: 'swarm of agents',
};

/** A target the door serves as a tool. */
export interface ServedTarget {
  kind: TargetKind;
  name: string;
}

/** The targets of `options`, one per tool name; two targets with one name are a configuration error. */
export function servedTargets(options: ServeMcpOptions): ServedTarget[] {
  const targets: ServedTarget[] = [];
  const seen = new Map<string, TargetKind>();
  for (const kind of ['agents', 'graphs', 'swarms'] as const) {
    for (const name of Object.keys(options[kind] ?? {})) {
      const other = seen.get(name);
      if (other)
        throw new ConfigurationError(
          `serveMcp: ${other}/${name} and ${kind}/${name} would be two MCP tools named "${name}"; give them different names.`,
        );
      seen.set(name, kind);
      targets.push({ kind, name });
    }
  }
  return targets;
}

function describe(target: ServedTarget, options: ServeMcpOptions): string {
  return (
    options.descriptions?.[target.name] ??
    `Talk to the ${KIND_WORDS[target.kind]} "${target.name}". Send a message; the result holds its answer and a conversationId: pass it back to continue the same conversation.`
  );
}

/** The client can answer form elicitation: it declared `elicitation` with `form`, or with nothing (form is the default). */
function formElicitation(declared: Record<string, unknown> | undefined): boolean {
  return declared !== undefined && (declared['form'] !== undefined || Object.keys(declared).length === 0);
}

/** Builds the MCP server of one connection; `doorOf` gives the door of a call (its caller's headers). */
export function buildMcpServer(
  options: ServeMcpOptions,
  targets: readonly ServedTarget[],
  doorOf: (request: Request | undefined) => ServerDoor,
): McpServer {
  const server = new McpServer(options.serverInfo ?? { name: 'skein', version: '0.1.0' }, {
    capabilities: { tools: {} },
  });
  for (const target of targets) {
    server.registerTool(
      target.name,
      { description: describe(target, options), inputSchema: TURN_INPUT, outputSchema: TURN_OUTPUT },
      (args, ctx) =>
        callTarget(doorOf(ctx.http?.req), target, args, {
          ctx,
          canElicit: formElicitation(server.server.getClientCapabilities()?.elicitation),
        }),
    );
  }
  return server;
}
