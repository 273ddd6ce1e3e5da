/**
 * Tool calls as journaled steps: a hook on `BeforeToolCallEvent` swaps the selected tool for a
 * wrapper whose `invoke` runs inside `ctx.run`, named by tool and tool use id. A finished call is
 * recorded once and never runs again on replay; calls the model asked for together still run
 * concurrently (each is its own step). A tool that throws is recorded as the error result the loop
 * would have made, so Restate does not retry it forever.
 */
import { BeforeToolCallEvent, errorToolResult, type AgentTool, type HookProvider, type HookRegistry, type ToolResult } from '@skein/core';
import { activeJournal, journaled } from './durable-scope.js';

function journaledTool(tool: AgentTool): AgentTool {
  return {
    name: tool.name,
    spec: tool.spec,
    invoke(input, context) {
      const scope = activeJournal();
      if (!scope) return tool.invoke(input, context);
      return journaled<ToolResult>(scope, `tool ${tool.name} ${context.toolUse.toolUseId}`, async () => {
        try {
          return await tool.invoke(input, context);
        } catch (error) {
          return errorToolResult(context.toolUse.toolUseId, error instanceof Error ? error.message : String(error));
        }
      });
    },
  };
}

/** Journals the agent's own tools (handoff tools stay plain: they only decide a transfer). */
export const journalTools: HookProvider = {
  registerHooks(registry: HookRegistry): void {
    registry.addCallback(BeforeToolCallEvent, (event) => {
      const tool = event.selectedTool;
      if (!tool || !activeJournal() || !event.agent.tools.includes(tool)) return;
      event.selectedTool = journaledTool(tool);
    });
  },
};
