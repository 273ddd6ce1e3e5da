/**
 * skein's interrupts and tool results in AG-UI's shapes: an interrupt becomes an AG-UI `Interrupt` (the
 * `RUN_FINISHED` outcome's list, answered by `resume` entries with the same id) and the value of a
 * `skein.approval` / `skein.interrupt` custom event; a tool result becomes a `TOOL_CALL_RESULT`'s content.
 */
import type { Interrupt as AguiInterrupt } from '@ag-ui/core';
import type { Interrupt, ToolResult } from '@skein/core';

/** The answer an approval expects (the `responseSchema` a front end can build its form from). */
const APPROVAL_SCHEMA = {
  type: 'object',
  properties: {
    approved: { type: 'boolean', description: 'true runs the tool; false refuses it.' },
    message: { type: 'string', description: 'A note for the agent (why it was refused, what to do instead).' },
  },
  required: ['approved'],
  additionalProperties: false,
};

function messageOf(interrupt: Interrupt): string | undefined {
  const use = interrupt.toolUse;
  if (interrupt.name === 'approval' && use) return `Approve ${use.name} ${JSON.stringify(use.input)}?`;
  if (typeof interrupt.reason === 'string') return interrupt.reason;
  return undefined;
}

/** An interrupt (with the id clients see, tagged with its turn) as AG-UI's `Interrupt`. */
export function aguiInterrupt(interrupt: Interrupt): AguiInterrupt {
  const message = messageOf(interrupt);
  const use = interrupt.toolUse;
  return {
    id: interrupt.id,
    reason: interrupt.name,
    ...(message !== undefined ? { message } : {}),
    ...(use ? { toolCallId: use.toolUseId } : {}),
    ...(interrupt.name === 'approval' ? { responseSchema: APPROVAL_SCHEMA } : {}),
    metadata: {
      skein: {
        name: interrupt.name,
        reason: interrupt.reason,
        source: interrupt.source,
        ...(use ? { toolName: use.name, input: use.input } : {}),
      },
    },
  };
}

/** The value of the custom event that announces an interrupt while the run is still streaming. */
export function interruptEventValue(interrupt: Interrupt, path: readonly string[]): Record<string, unknown> {
  const use = interrupt.toolUse;
  return {
    id: interrupt.id,
    name: interrupt.name,
    reason: interrupt.reason,
    source: interrupt.source,
    path: [...path],
    ...(use ? { toolCallId: use.toolUseId, toolName: use.name, input: use.input } : {}),
  };
}

/** A tool result as text: its text blocks, JSON as JSON text, binary content named. */
export function toolResultContent(result: ToolResult): string {
  return result.content
    .map((c) => ('text' in c ? c.text : 'json' in c ? JSON.stringify(c.json) : '[binary content]'))
    .join('\n');
}
