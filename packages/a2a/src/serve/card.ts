/**
 * The agent card of a served target, as data: name and description from the target, one skill per
 * tool of an agent or per member of a graph or swarm, streaming on, and the transports at their
 * paths (JSON-RPC and HTTP+JSON on A2A 1.0, JSON-RPC on 0.3 too when the compatibility layer is on).
 */
import type { AgentCard, AgentSkill } from '@a2a-js/sdk';
import { isAgent } from '@skein/core';
import type { A2ACardOptions, A2ATarget } from './options.js';

/** Where each transport is served, relative to the base URL. */
export const PATHS = {
  card: '/.well-known/agent-card.json',
  jsonRpc: '/a2a/jsonrpc',
  rest: '/a2a/rest',
} as const;

function skill(id: string, name: string, description: string, tags: string[]): AgentSkill {
  return {
    id,
    name,
    description,
    tags,
    examples: [],
    inputModes: [],
    outputModes: [],
    securityRequirements: [],
  };
}

/** The members of an orchestrator: a Graph's `nodes` map, a Swarm's `nodes` list. */
function membersOf(target: A2ATarget): { id: string; description: string }[] {
  const nodes = (target as { nodes?: unknown }).nodes;
  const out: { id: string; description: string }[] = [];
  const add = (id: string, t: unknown): void => {
    const description = isAgent(t)
      ? (t.description ?? t.handoffDescription ?? `The ${t.name} agent.`)
      : `The ${id} orchestrator.`;
    out.push({ id, description });
  };
  if (nodes instanceof Map) for (const [id, node] of nodes) add(String(id), (node as { target?: unknown }).target);
  else if (Array.isArray(nodes)) for (const n of nodes) if (isAgent(n)) add(n.name, n);
  return out;
}

/** The skills a card lists for `target`: its tools or members, else the target itself. */
function skillsOf(target: A2ATarget): AgentSkill[] {
  const listed = isAgent(target)
    ? target.tools.map((t) => skill(t.name, t.name, t.spec.description, ['tool']))
    : membersOf(target).map((m) => skill(m.id, m.id, m.description, ['member']));
  if (listed.length > 0) return listed;
  const { name, description } = identityOf(target);
  return [skill(name, name, description, [])];
}

/** The card's name and description for `target`. */
function identityOf(target: A2ATarget): { name: string; description: string } {
  if (isAgent(target)) {
    return { name: target.name, description: target.description ?? `The ${target.name} agent.` };
  }
  const members = membersOf(target).map((m) => m.id);
  const kind = (target as { constructor: { name: string } }).constructor.name.toLowerCase();
  return {
    name: target.id,
    description: `A skein ${kind} of ${members.length} members${members.length ? `: ${members.join(', ')}` : ''}.`,
  };
}

/** The card's security: HTTP bearer authentication when `bearerAuth` is given, else none declared. */
function security(options: A2ACardOptions): Pick<AgentCard, 'securitySchemes' | 'securityRequirements'> {
  const bearer = options.bearerAuth;
  if (!bearer) return { securitySchemes: {}, securityRequirements: [] };
  return {
    securitySchemes: {
      bearer: {
        scheme: {
          $case: 'httpAuthSecurityScheme',
          value: {
            description: bearer.description ?? 'Send Authorization: Bearer <token>.',
            scheme: 'Bearer',
            bearerFormat: bearer.format ?? '',
          },
        },
      },
    },
    securityRequirements: [{ schemes: { bearer: { list: [] } } }],
  };
}

/** The v1.0 agent card of `target` served at `baseUrl`. */
export function buildCard(target: A2ATarget, baseUrl: string, options: A2ACardOptions, legacy: boolean): AgentCard {
  const base = (options.url ?? baseUrl).replace(/\/+$/, '');
  const identity = identityOf(target);
  const jsonRpc = { url: `${base}${PATHS.jsonRpc}`, protocolBinding: 'JSONRPC', tenant: '', protocolVersion: '1.0' };
  const rest = { url: `${base}${PATHS.rest}`, protocolBinding: 'HTTP+JSON', tenant: '', protocolVersion: '1.0' };
  return {
    name: options.name ?? identity.name,
    description: options.description ?? identity.description,
    supportedInterfaces: legacy ? [jsonRpc, rest, { ...jsonRpc, protocolVersion: '0.3' }] : [jsonRpc, rest],
    provider: options.provider,
    version: options.version ?? '1.0.0',
    ...(options.documentationUrl ? { documentationUrl: options.documentationUrl } : {}),
    capabilities: { streaming: true, pushNotifications: false, extensions: [], extendedAgentCard: false },
    ...security(options),
    defaultInputModes: ['text/plain', 'application/json'],
    defaultOutputModes: ['text/plain', 'application/json'],
    skills: options.skills
      ? options.skills.map((s) => ({ ...skill(s.id, s.name, s.description, s.tags ?? []), examples: s.examples ?? [] }))
      : skillsOf(target),
    signatures: [],
  };
}
