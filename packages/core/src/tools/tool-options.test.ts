import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ConfigurationError, tool, type ToolOptions } from '../index.js';

// Found by the bad-input fuzz (test/reliability): tool() took these and failed later, inside skein
// ("Cannot read properties of undefined (reading 'name')", "rule is not a function") or only when the
// model called the tool.

const good = {
  name: 'lookup',
  description: 'Looks up.',
  inputSchema: z.object({ id: z.string() }),
  callback: (): string => 'ok',
};

describe('tool() with options of wrong types', () => {
  it.each([
    ['no options', undefined, /tool\(\) takes an options object/],
    ['a number as name', { ...good, name: 5 }, /Tool name must be a string \(got number\)/],
    ['a string as callback', { ...good, callback: 'run' }, /tool\(lookup\): callback must be a function/],
    ['no callback', { ...good, callback: undefined }, /callback must be a function/],
    ['a number as description', { ...good, description: 5 }, /description must be a string/],
    ['a string as needsApproval', { ...good, needsApproval: 'yes' }, /needsApproval must be true, false or a function/],
  ])('%s is a ConfigurationError naming the option', (_label, options, message) => {
    const build = (): unknown => tool(options as unknown as ToolOptions<z.ZodObject>);
    expect(build).toThrow(ConfigurationError);
    expect(build).toThrow(message);
  });

  it('takes needsApproval as a boolean or a function', () => {
    expect(tool({ ...good, needsApproval: true }).needsApproval).toBeDefined();
    expect(() => tool({ ...good, needsApproval: () => false })).not.toThrow();
  });
});
