/**
 * Tool calls as journaled steps: a hook on `BeforeToolCallEvent` swaps the selected tool for a
 * wrapper whose `invoke` runs inside `ctx.run`, named by tool and tool use id. A finished call is
 * recorded once and never runs again on replay; calls the model asked for together still run
 * concurrently (each is its own step). A tool that throws is recorded as the error result the loop
 * would have made, so Restate does not retry it forever. A tool that asks a person
 * (`context.interrupt`) records the question and pauses the same way on replay; approvals
 * (`needsApproval`) are asked by the loop before the step, so a denied tool never has one. An agent
 * used as a tool that pauses or stops at its budget records where it stood with the question, so
 * the resumed call goes on from there instead of starting the nested agent again.
 */
import {
  BeforeToolCallEvent,
  BudgetStopRaised,
  InterruptRaised,
  isAgent,
  errorToolResult,
  type AgentTool,
  type HookProvider,
  type HookRegistry,
  type BudgetExceeded,
  type Interrupt,
  type NestedAgentState,
  type ToolResult,
  errorMessage,
} from '@skein/core';
import { activeJournal, journaled } from './durable-scope.js';

type ToolOutcome =
  | { result: ToolResult }
  | { interrupts: Interrupt[]; nested?: NestedAgentState }
  | { budgetStop: BudgetExceeded; nested?: NestedAgentState };

const withNested = (nested: NestedAgentState | undefined): { nested?: NestedAgentState } => (nested ? { nested } : {});

function journaledTool(tool: AgentTool): AgentTool {
  return {
    name: tool.name,
    spec: tool.spec,
    ...(tool.needsApproval !== undefined ? { needsApproval: tool.needsApproval } : {}),
    async invoke(input, context) {
      const scope = activeJournal();
      if (!scope) return tool.invoke(input, context);
      const outcome = await journaled<ToolOutcome>(
        scope,
        `tool ${tool.name} ${context.toolUse.toolUseId}`,
        async () => {
          try {
            return { result: await tool.invoke(input, context) };
          } catch (error) {
            if (error instanceof InterruptRaised) return { interrupts: error.interrupts, ...withNested(error.nested) };
            if (error instanceof BudgetStopRaised) return { budgetStop: error.exceeded, ...withNested(error.nested) };
            return {
              result: errorToolResult(context.toolUse.toolUseId, errorMessage(error)),
            };
          }
        },
      );
      if ('interrupts' in outcome) throw new InterruptRaised(outcome.interrupts, outcome.nested);
      if ('budgetStop' in outcome) throw new BudgetStopRaised(outcome.budgetStop, outcome.nested);
      return outcome.result;
    },
  };
}

/** Journals the agent's own tools (handoff tools stay plain: they only decide a transfer). */
export const journalTools: HookProvider = {
  registerHooks(registry: HookRegistry): void {
    registry.addCallback(BeforeToolCallEvent, (event) => {
      const tool = event.selectedTool;
      if (!tool || !activeJournal() || !isAgent(event.agent) || !event.agent.tools.includes(tool)) return;
      event.selectedTool = journaledTool(tool);
    });
  },
};
