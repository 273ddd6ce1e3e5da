import { object, text, type TestTools } from './test-tools.js';

/** A 1x1 transparent PNG, base64. */
const TEST_PNG_BASE64 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=';

/** Tools that answer with each kind of content: text, structured content, an image, embedded resources, an error. */
export function registerContentTools(tools: TestTools): void {
  tools.register(
    'echo',
    'Returns the text it is given.',
    object({ text: { type: 'string' } }, ['text']),
    ({ text: t }) => text(String(t)),
  );
  tools.register(
    'add',
    'Adds two numbers.',
    object({ a: { type: 'number' }, b: { type: 'number' } }, ['a', 'b']),
    ({ a, b }) => {
      const sum = Number(a) + Number(b);
      return { content: [{ type: 'text', text: `${String(a)} + ${String(b)} = ${sum}` }], structuredContent: { sum } };
    },
    object({ sum: { type: 'number' } }, ['sum']),
  );
  tools.register('picture', 'Returns a tiny PNG.', object({}), () => ({
    content: [
      { type: 'text', text: 'A 1x1 pixel:' },
      { type: 'image', data: TEST_PNG_BASE64, mimeType: 'image/png' },
    ],
  }));
  tools.register('documents', 'Returns embedded resources.', object({}), () => ({
    content: [
      {
        type: 'resource',
        resource: { uri: 'file:///notes/readme.md', mimeType: 'text/markdown', text: '# Notes\nhello' },
      },
      {
        type: 'resource',
        resource: {
          uri: 'file:///reports/q3.pdf',
          mimeType: 'application/pdf',
          blob: Buffer.from('%PDF-1.4 test').toString('base64'),
        },
      },
    ],
  }));
  tools.register(
    'fail',
    'Reports a tool error.',
    object({ message: { type: 'string' } }, ['message']),
    ({ message }) => ({
      isError: true,
      content: [{ type: 'text', text: String(message) }],
    }),
  );
}
