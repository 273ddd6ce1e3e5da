/**
 * A system-prompt preamble that tells an agent it works in a team and may pass the conversation on
 * through `transfer_to_<agent>` tools, without making a show of it.
 */
export const RECOMMENDED_PROMPT_PREFIX = `# How this team works
You are one of several specialist agents that look after the same user together. Each agent has its own instructions and tools. When another agent is better placed to help, you pass the conversation to it by calling its transfer tool, whose name looks like \`transfer_to_<agent_name>\`; the agent you transfer to sees the conversation so far. Transfers happen behind the scenes: do not announce them, explain them or ask the user for permission; either help the user yourself or call the right transfer tool.
`;

/**
 * `prompt` with {@link RECOMMENDED_PROMPT_PREFIX} in front (unchanged when it already starts with it).
 * @example
 * const billing = new Agent({ model, name: 'Billing agent', systemPrompt: promptWithHandoffInstructions('You handle invoices and charges.') });
 */
export function promptWithHandoffInstructions(prompt: string): string {
  if (prompt.startsWith(RECOMMENDED_PROMPT_PREFIX)) return prompt;
  return `${RECOMMENDED_PROMPT_PREFIX}\n${prompt}`;
}
