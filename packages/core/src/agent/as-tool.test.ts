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

  it('keeps the wrapped agent\'s history between calls with preserveContext', async () => {
    const researcherModel = new ScriptedModel(['one', 'two']);
    const researcher = new Agent({ name: 'r', model: researcherModel });
    const t = researcher.asTool({ name: 'ask', preserveContext: true });
    const lead = new Agent({ model: new ScriptedModel([{ toolUses: [{ name: 'ask', input: { input: 'a' } }] }, { toolUses: [{ name: 'ask', input: { input: 'b' } }] }, 'ok']), tools: [t] });
    await lead.invoke('go');
    expect(researcherModel.requests[1]?.messages).toHaveLength(3);
  });
});
