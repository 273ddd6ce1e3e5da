import { ConfigurationError } from '../errors/configuration-errors.js';
import type { ToolSpec } from '../model/model.js';
import type { AgentTool } from './agent-tool.js';

/** Above this many tools, lookups by name go through a map (built on first lookup); below, a scan is faster and smaller. */
const SCAN_LIMIT = 8;

/**
 * The tools of one agent, by name. Kept as an array (an agent with a handful of tools pays for one
 * small array, not a map); a name index is built on first lookup once there are many.
 */
export class ToolRegistry {
  #tools: AgentTool[] = [];
  #byName: Map<string, AgentTool> | undefined;
  #specs: ToolSpec[] | undefined;

  constructor(tools: readonly AgentTool[] = []) {
    for (const t of tools) this.add(t);
    // Pushing grew the array with room to spare (16 slots for 5 tools): keep an exact copy.
    if (tools.length > 0) this.#tools = this.#tools.slice();
  }

  /** Adds a tool; a second tool with the same name is a configuration error. */
  add(tool: AgentTool): void {
    if (!tool || typeof tool.invoke !== 'function' || typeof tool.name !== 'string' || !tool.spec) {
      throw new ConfigurationError(
        'Every entry of `tools` must be a tool: build one with tool({ name, description, inputSchema, callback }).',
      );
    }
    if (this.has(tool.name)) {
      throw new ConfigurationError(
        `Two tools are named ${JSON.stringify(tool.name)}; tool names must be unique within an agent.`,
      );
    }
    this.#tools.push(tool);
    this.#byName?.set(tool.name, tool);
    this.#specs = undefined;
  }

  /** The tool called `name`, if any. */
  get(name: string): AgentTool | undefined {
    const tools = this.#tools;
    if (tools.length <= SCAN_LIMIT) {
      for (const t of tools) if (t.name === name) return t;
      return undefined;
    }
    this.#byName ??= new Map(tools.map((t) => [t.name, t]));
    return this.#byName.get(name);
  }

  /** True when a tool called `name` exists. */
  has(name: string): boolean {
    return this.get(name) !== undefined;
  }

  /** Names of all tools, in registration order. */
  names(): string[] {
    return this.#tools.map((t) => t.name);
  }

  /** All tools, in registration order (a copy). */
  list(): AgentTool[] {
    return [...this.#tools];
  }

  /** The specs sent to the model (cached until the tools change). */
  specs(): ToolSpec[] {
    this.#specs ??= this.#tools.map((t) => t.spec);
    return this.#specs;
  }
}
