import { Agent, ConfigurationError, toolResultsOf, type Message } from '@skein/core';
import { ScriptedModel } from '@skein/core/testing';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { handoff, promptWithHandoffInstructions, RECOMMENDED_PROMPT_PREFIX } from './index.js';

const quiet = (name: string, handoffDescription?: string): Agent =>
  new Agent({ model: new ScriptedModel([]), name, ...(handoffDescription ? { handoffDescription } : {}) });

function lastResults(agent: Agent): ReturnType<typeof toolResultsOf> {
  return toolResultsOf(agent.messages[agent.messages.length - 1] as Message);
}

describe('handoff()', () => {
  it('defaults to transfer_to_<name> and a description with the handoffDescription', () => {
    const h = handoff(quiet('Refund agent', 'Handles refunds.'));
    expect(h.toolName).toBe('transfer_to_refund_agent');
    expect(h.toolDescription).toContain('Refund agent');
    expect(h.toolDescription).toContain('Handles refunds.');
    expect(h.inputJsonSchema).toEqual({ type: 'object', properties: {}, additionalProperties: false });
  });

  it('takes name and description overrides and refuses bad options', () => {
    const h = handoff(quiet('x'), {
      toolNameOverride: 'custom_handoff_tool',
      toolDescriptionOverride: 'Custom description',
    });
    expect([h.toolName, h.toolDescription]).toEqual(['custom_handoff_tool', 'Custom description']);
    expect(() => handoff(quiet('x'), { toolNameOverride: 'has space' })).toThrow(ConfigurationError);
    expect(() => handoff(quiet('x'), { inputType: z.string() })).toThrow(/must describe an object/);
    expect(() => handoff(quiet('x'), { bogus: 1 } as never)).toThrow(/Unknown handoff option/);
    expect(() => handoff(undefined as never)).toThrow(/first argument/);
  });

  it('validates inputType: bad arguments give an error result and no transfer; good ones reach onHandoff typed', async () => {
    const seen: string[] = [];
    const escalation = quiet('Escalation agent');
    const h = handoff(escalation, {
      inputType: z.object({ reason: z.string() }),
      onHandoff: async (_ctx, input) => {
        await new Promise((r) => setTimeout(r, 1));
        seen.push(input.reason);
      },
    });
    const model = new ScriptedModel([
      { toolUses: [{ name: 'transfer_to_escalation_agent', input: { reason: 42 } }] },
      { toolUses: [{ name: 'transfer_to_escalation_agent', input: { reason: 'angry customer' } }] },
    ]);
    const triage = new Agent({ model, name: 'Triage', handoffs: [h] });
    const result = await triage.invoke('help');
    expect(result.stopReason).toBe('handoff');
    expect(result.handoff?.target).toBe(escalation);
    expect(result.handoff?.input).toEqual({ reason: 'angry customer' });
    expect(seen).toEqual(['angry customer']);
    const firstResult = toolResultsOf(triage.messages[2] as Message)[0];
    expect(firstResult?.status).toBe('error');
    expect(JSON.stringify(firstResult?.content)).toMatch(/reason/);
    expect(model.requests[0]?.toolNames).toEqual(['transfer_to_escalation_agent']);
  });

  it('a throwing onHandoff refuses the transfer with a readable error', async () => {
    const h = handoff(quiet('B'), {
      onHandoff: () => {
        throw new Error('db down');
      },
    });
    const model = new ScriptedModel([{ toolUses: [{ name: 'transfer_to_b' }] }, 'ok, I will help myself']);
    const a = new Agent({ model, name: 'A', handoffs: [h] });
    const result = await a.invoke('x');
    expect(result.stopReason).toBe('end_turn');
    expect(JSON.stringify(toolResultsOf(a.messages[2] as Message))).toContain('db down');
  });

  it('isEnabled: a function is evaluated at every model call and disabled handoffs are not shown', async () => {
    let open = false;
    let calls = 0;
    const h = handoff(quiet('Refund agent'), { isEnabled: async () => (calls++, open) });
    const off = handoff(quiet('Billing agent'), { isEnabled: false });
    const model = new ScriptedModel([
      () => {
        open = true;
        return { toolUses: [{ name: 'lookup' }] };
      },
      { toolUses: [{ name: 'transfer_to_refund_agent' }] },
    ]);
    const a = new Agent({ model, name: 'Triage', handoffs: [h, off] });
    const result = await a.invoke('refund please');
    expect(model.requests.map((r) => r.toolNames)).toEqual([[], ['transfer_to_refund_agent']]);
    expect(calls).toBe(2);
    expect(result.stopReason).toBe('handoff');
    expect(lastResults(a)[0]?.status).toBe('success');
  });
});

describe('recommended prompt', () => {
  it('prefixes once', () => {
    const p = promptWithHandoffInstructions('You handle billing.');
    expect(p.startsWith(RECOMMENDED_PROMPT_PREFIX)).toBe(true);
    expect(p.endsWith('You handle billing.')).toBe(true);
    expect(promptWithHandoffInstructions(p)).toBe(p);
    expect(RECOMMENDED_PROMPT_PREFIX).toContain('transfer_to_');
  });
});
