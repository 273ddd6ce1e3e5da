import { describe, expect, it } from 'vitest';
import { Agent, ConfigurationError } from '@skein/core';
import { ScriptedModel } from '@skein/core/testing';
import { Swarm, type SwarmOptions } from './index.js';

// Found by the bad-input fuzz (test/reliability): these failed inside a run with a TypeError
// ("openMultiAgent is not a function", "number 5 is not iterable") or were taken as they were.

const writer = (): Agent => new Agent({ name: 'writer', model: new ScriptedModel(['ok'], { loop: true }) });

describe('new Swarm with options of wrong types', () => {
  it.each([
    ['sessionManager', 5, /Swarm option sessionManager must be a session manager/],
    ['hooks', 5, /Swarm option hooks must be an array of hook providers/],
    ['hooks', [{}], /Swarm option hooks/],
    ['id', 5, /Swarm option id must be a non-empty string/],
    ['nestHandoffHistory', 'yes', /Swarm option nestHandoffHistory must be true or false/],
  ])('%s = %j is a ConfigurationError naming it', (key, value, message) => {
    const build = (): Swarm => new Swarm({ nodes: [writer()], [key]: value } as unknown as SwarmOptions);
    expect(build).toThrow(ConfigurationError);
    expect(build).toThrow(message);
  });

  it('still runs with hooks and an id of the right types', async () => {
    const swarm = new Swarm({
      nodes: [writer()],
      id: 'desk',
      hooks: [{ registerHooks: () => undefined }],
      nestHandoffHistory: false,
    });
    expect((await swarm.invoke('task')).status).toBe('completed');
  });
});
