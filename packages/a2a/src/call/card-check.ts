/**
 * What a remote agent card must hold for skein to call it, as a pure check: a name, and at least
 * one interface (URL and protocol binding) skein speaks; the other fields, when present, of their type.
 */
import type { AgentCard } from '@a2a-js/sdk';

const SPOKEN = ['JSONRPC', 'HTTP+JSON'];

/** The problems of a card (empty when it is usable); `legacy`: an A2A 0.3 card (one `url`). */
export function cardProblems(card: unknown, legacy = false): string[] {
  if (typeof card !== 'object' || card === null || Array.isArray(card)) return ['the card is not a JSON object'];
  const c = card as Partial<Record<keyof AgentCard, unknown>>;
  const problems: string[] = [];
  if (legacy) {
    const url = (card as { url?: unknown }).url;
    if (typeof url !== 'string' || url === '') problems.push('url is missing');
  }
  if (typeof c.name !== 'string' || c.name.trim() === '') problems.push('name is missing');
  // Proto3 JSON leaves out empty strings and lists, so those may be absent; present, they must have their type.
  for (const key of ['description', 'version'] as const)
    if (c[key] !== undefined && typeof c[key] !== 'string') problems.push(`${key} is not a string`);
  if (c.capabilities !== undefined && (typeof c.capabilities !== 'object' || c.capabilities === null))
    problems.push('capabilities is not an object');
  for (const key of ['skills', 'defaultInputModes', 'defaultOutputModes'] as const)
    if (c[key] !== undefined && !Array.isArray(c[key])) problems.push(`${key} is not a list`);
  if (legacy) return problems;
  const interfaces = Array.isArray(c.supportedInterfaces) ? (c.supportedInterfaces as Record<string, unknown>[]) : [];
  if (interfaces.length === 0) problems.push('supportedInterfaces is missing or empty (no URL to call)');
  else {
    interfaces.forEach((i, n) => {
      if (typeof i?.['url'] !== 'string' || i['url'] === '') problems.push(`supportedInterfaces[${n}].url is missing`);
      if (typeof i?.['protocolBinding'] !== 'string')
        problems.push(`supportedInterfaces[${n}].protocolBinding is missing`);
    });
    if (!interfaces.some((i) => SPOKEN.includes(String(i?.['protocolBinding']))))
      problems.push(`no interface speaks ${SPOKEN.join(' or ')}`);
  }
  return problems;
}
