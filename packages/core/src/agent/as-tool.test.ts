import { describe, expect, it } from 'vitest';
import { Agent } from '../index.js';
import { ScriptedModel } from '../testing/index.js';

describe('agent.asTool', () => {
  it('lets one agent call another and read its final text', async () => {
    const researcherModel = new ScriptedModel(['Paris has 2.1 million people.', 'Lyon has 0.5 million.']);
    const researcher = new Agent({ name: 'researcher', description: 'Looks facts up', model: researcherModel });
    const asTool = researcher.asTool();
    expect(asTool.spec.name).toBe('researcher');
    expect(asTool.spec.description).toBe('Looks facts up');
    const model = new ScriptedModel([
      { toolUses: [{ name: 'researcher', input: { input: 'population of Paris?' } }] },
      { toolUses: [{ name: 'researcher', input: { input: 'and Lyon?' } }] },
      'Done.',
    ]);
    const lead = new Agent({ model, tools: [asTool] });
    await lead.invoke('compare');
    expect(JSON.stringify(lead.messages[2])).toContain('Paris has 2.1 million people.');
    expect(researcherModel.requests[1]?.messages).toHaveLength(1);
  });

  it("keeps the wrapped agent's history between calls with preserveContext", async () => {
    const researcherModel = new ScriptedModel(['one', 'two']);
    const researcher = new Agent({ name: 'r', model: researcherModel });
    const t = researcher.asTool({ name: 'ask', preserveContext: true });
    const lead = new Agent({
      model: new ScriptedModel([
        { toolUses: [{ name: 'ask', input: { input: 'a' } }] },
        { toolUses: [{ name: 'ask', input: { input: 'b' } }] },
        'ok',
      ]),
      tools: [t],
    });
    await lead.invoke('go');
    expect(researcherModel.requests[1]?.messages).toHaveLength(3);
  });

  describe('a nested agent that does not answer gives its caller an error result', () => {
    const callOnce = async (nested: Agent): Promise<{ status: string; text: string }> => {
      const lead = new Agent({
        model: new ScriptedModel([{ toolUses: [{ name: 'ask', input: { input: 'q' } }] }, 'ok']),
        tools: [nested.asTool({ name: 'ask' })],
        retryStrategy: null,
      });
      await lead.invoke('go');
      const block = lead.messages[2]?.content[0];
      const result = block && 'toolResult' in block ? block.toolResult : undefined;
      const first = result?.content[0];
      return { status: result?.status ?? 'none', text: first && 'text' in first ? first.text : '' };
    };

    it('when it throws (its model fails)', async () => {
      const nested = new Agent({
        name: 'researcher',
        model: new ScriptedModel([{ error: new Error('model down') }]),
        retryStrategy: null,
      });
      expect(await callOnce(nested)).toMatchObject({
        status: 'error',
        text: expect.stringMatching(/^researcher failed: .*model down/),
      });
    });

    it('when it stops at max_tokens (partial answer included)', async () => {
      const nested = new Agent({
        name: 'researcher',
        model: new ScriptedModel([{ text: 'Paris has 2.1 mil', stopReason: 'max_tokens' }]),
      });
      expect(await callOnce(nested)).toEqual({
        status: 'error',
        text: 'researcher stopped at max_tokens before it finished; the answer is incomplete. Its partial answer: Paris has 2.1 mil',
      });
    });

    it('when it is cancelled', async () => {
      const nested = new Agent({ name: 'researcher', model: new ScriptedModel([{ text: 'never', delayMs: 1_000 }]) });
      const lead = new Agent({
        model: new ScriptedModel([{ toolUses: [{ name: 'ask', input: { input: 'q' } }] }, 'ok']),
        tools: [nested.asTool({ name: 'ask' })],
      });
      lead.on('toolStart', () => void setTimeout(() => nested.cancel(), 5));
      await lead.invoke('go');
      const block = lead.messages[2]?.content[0];
      expect(block && 'toolResult' in block ? block.toolResult : undefined).toMatchObject({
        status: 'error',
        content: [{ text: 'researcher was cancelled before it answered.' }],
      });
    });

    it('when it tries to hand off', async () => {
      const billing = new Agent({ name: 'billing', model: new ScriptedModel([]) });
      const nested = new Agent({
        name: 'researcher',
        model: new ScriptedModel([{ toolUses: [{ name: 'transfer_to_billing', input: {} }] }]),
        handoffs: [billing],
      });
      expect(await callOnce(nested)).toMatchObject({
        status: 'error',
        text: expect.stringContaining('tried to transfer to billing'),
      });
    });

    it('but still succeeds with the final text when it answers', async () => {
      const nested = new Agent({ name: 'researcher', model: new ScriptedModel(['Paris.']) });
      expect(await callOnce(nested)).toEqual({ status: 'success', text: 'Paris.' });
    });
  });
});
