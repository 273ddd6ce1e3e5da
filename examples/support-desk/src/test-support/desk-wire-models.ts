/**
 * Loopback provider servers that answer like the desk's scripted models, so the desk runs on the real
 * AnthropicModel and BedrockModel (their SDKs, their wire formats) in tests: the Bedrock server reads
 * each ConverseStream request, asks the scripted model of the role its system prompt names, and
 * streams the answer back as event-stream frames.
 */
import type { Message, ModelRequest, ModelStreamEvent, ToolSpec } from '@skein/core';
import { BedrockWireServer, type WireFrame, type WireReply, type WireRequest } from '@skein/model-bedrock/testing';
import {
  BILLING_PROMPT,
  CONCIERGE_PROMPT,
  NOTES_PROMPT,
  REFUND_PROMPT,
  SUMMARY_PROMPT,
  TRIAGE_PROMPT,
} from '../desk-prompts.js';
import { scriptedDeskModel, type DeskRole } from '../scripted-desk.js';

const ROLES: [string, DeskRole][] = [
  [TRIAGE_PROMPT, 'triage'],
  [BILLING_PROMPT, 'billing'],
  [REFUND_PROMPT, 'refund'],
  [SUMMARY_PROMPT, 'summary'],
  [CONCIERGE_PROMPT, 'concierge'],
  [NOTES_PROMPT, 'notes'],
  // The injection judge of the triage's input (an llmJudge of @skein/guardrails).
  ['You are a guardrail.', 'judge'],
];

interface ConverseBody {
  system?: ({ text: string } | { cachePoint: unknown })[];
  messages: { role: 'user' | 'assistant'; content: object[] }[];
  toolConfig?: {
    tools: ({ toolSpec: { name: string; description: string; inputSchema: { json: unknown } } } | object)[];
  };
}

/** A Converse request body as the core request the desk's agent made (cache points dropped). */
function coreRequest(body: ConverseBody): ModelRequest & { systemPrompt: string } {
  const systemPrompt = (body.system ?? []).flatMap((b) => ('text' in b ? [b.text] : [])).join('');
  const messages = body.messages.map((m) => ({
    role: m.role,
    content: m.content.filter((b) => !('cachePoint' in b)),
  })) as Message[];
  const toolSpecs = (body.toolConfig?.tools ?? []).flatMap((t) =>
    'toolSpec' in t ? [t.toolSpec as unknown as ToolSpec] : [],
  );
  return { messages, systemPrompt, toolSpecs };
}

/** The scripted desk answer to one ConverseStream request, as frames. */
async function answer(request: WireRequest): Promise<WireFrame[]> {
  const core = coreRequest(request.body as ConverseBody);
  const role = ROLES.find(([prompt]) => core.systemPrompt.includes(prompt))?.[1];
  if (!role) throw new Error(`No desk role has the system prompt ${JSON.stringify(core.systemPrompt.slice(0, 80))}`);
  const frames: WireFrame[] = [];
  for await (const event of scriptedDeskModel(role).stream(core) as AsyncIterable<ModelStreamEvent>) {
    const [name, body] = Object.entries(event)[0] as [string, unknown];
    frames.push({ event: name, body });
  }
  return frames;
}

/** A Bedrock Runtime server on loopback that answers every request as the desk's scripted models would. */
export async function deskBedrockServer(): Promise<BedrockWireServer> {
  const server = await new BedrockWireServer().start();
  server.fallback = async (request: WireRequest): Promise<WireReply> => ({ frames: await answer(request) });
  return server;
}
