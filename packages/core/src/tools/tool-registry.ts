import { ConfigurationError } from '../errors/configuration-errors.js';
import type { ToolSpec } from '../model/model.js';
import type { AgentTool } from './agent-tool.js';

/** The tools of one agent, by name. */
export class ToolRegistry {
  readonly #tools = new Map<string, AgentTool>();
  #specs: ToolSpec[] | undefined;

  constructor(tools: readonly AgentTool[] = []) {
    for (const t of tools) this.add(t);
  }

  /** Adds a tool; a second tool with the same name is a configuration error. */
  add(tool: AgentTool): void {
    if (!tool || typeof tool.invoke !== 'function' || typeof tool.name !== 'string' || !tool.spec) {
      throw new ConfigurationError('Every entry of `tools` must be a tool: build one with tool({ name, description, inputSchema, callback }).');
    }
    if (this.#tools.has(tool.name)) {
      throw new ConfigurationError(`Two tools are named ${JSON.stringify(tool.name)}; tool names must be unique within an agent.`);
    }
    this.#tools.set(tool.name, tool);
    this.#specs = undefined;
  }

  /** The tool called `name`, if any. */
  get(name: string): AgentTool | undefined {
    return this.#tools.get(name);
  }

  /** True when a tool called `name` exists. */
  has(name: string): boolean {
    return this.#tools.has(name);
  }

  /** Names of all tools, in registration order. */
  names(): string[] {
    return [...this.#tools.keys()];
  }

  /** The specs sent to the model (cached until the tools change). */
  specs(): ToolSpec[] {
    this.#specs ??= [...this.#tools.values()].map((t) => t.spec);
    return this.#specs;
  }
}
