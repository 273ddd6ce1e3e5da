import { object, text, type TestTools } from './test-tools.js';

/** Tools a test steers the server with: its counters, and a change of its tool list at run time. */
export function registerControlTools(tools: TestTools): void {
  tools.register('stats', 'Counters of this server.', object({}), () => ({
    content: [{ type: 'text', text: JSON.stringify({ ...tools.stats, pid: process.pid }) }],
    structuredContent: { ...tools.stats, pid: process.pid },
  }));
  tools.register(
    'change_tools',
    'Removes tool `remove`, adds tool `add` (taking an integer `n`), makes echo require `loud` (`louder`), notifies list_changed.',
    object({ remove: { type: 'string' }, add: { type: 'string' }, louder: { type: 'boolean' } }),
    ({ remove, add, louder }) => {
      if (louder === true)
        tools.changeInput('echo', object({ text: { type: 'string' }, loud: { type: 'boolean' } }, ['text', 'loud']));
      if (typeof remove === 'string') tools.remove(remove);
      if (typeof add === 'string' && !tools.has(add)) {
        tools.register(add, 'Added at run time.', object({ n: { type: 'integer' } }, ['n']), ({ n }) =>
          text(`${add}:${String(n)}`),
        );
      }
      tools.server.sendToolListChanged();
      return text('changed');
    },
  );
}
