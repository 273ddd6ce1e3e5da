import { describe, expect, it } from 'vitest';
import { documentName, skeinToolName, toResultContent, toToolResult } from './index.js';

const b64 = (s: string): string => Buffer.from(s).toString('base64');
const bytesOf = (block: unknown): string => {
  const b = block as { image?: { source: { bytes: Uint8Array } }; document?: { source: { bytes: Uint8Array } } };
  return Buffer.from((b.image ?? b.document)?.source.bytes ?? new Uint8Array()).toString();
};

describe('MCP content -> skein tool result content', () => {
  it('text', () => {
    expect(toResultContent({ type: 'text', text: 'hello' })).toEqual({ text: 'hello' });
  });

  it('images of the four formats models take become image blocks with the decoded bytes', () => {
    for (const [mimeType, format] of [
      ['image/png', 'png'],
      ['image/jpeg', 'jpeg'],
      ['image/gif', 'gif'],
      ['image/webp', 'webp'],
      ['IMAGE/PNG; x=1', 'png'],
    ]) {
      const block = toResultContent({ type: 'image', data: b64('pixels'), mimeType: mimeType as string });
      expect(block).toMatchObject({ image: { format } });
      expect(bytesOf(block)).toBe('pixels');
    }
  });

  it('other images and audio become a text note saying what was left out', () => {
    expect(toResultContent({ type: 'image', data: b64('<svg/>'), mimeType: 'image/svg+xml' })).toEqual({
      text: '[image of type image/svg+xml, 6 bytes, left out: skein tool results cannot carry it]',
    });
    expect(toResultContent({ type: 'audio', data: b64('RIFF'), mimeType: 'audio/wav' })).toEqual({
      text: '[audio of type audio/wav, 4 bytes, left out: skein tool results cannot carry it]',
    });
  });

  it('an embedded text resource becomes its text', () => {
    expect(
      toResultContent({ type: 'resource', resource: { uri: 'file:///a.md', mimeType: 'text/markdown', text: '# A' } }),
    ).toEqual({ text: '# A' });
  });

  it('an embedded blob becomes an image or a document by its MIME type, named after its URI', () => {
    const image = toResultContent({
      type: 'resource',
      resource: { uri: 'file:///x/dot.png', mimeType: 'image/png', blob: b64('png!') },
    });
    expect(image).toMatchObject({ image: { format: 'png' } });
    expect(bytesOf(image)).toBe('png!');
    const cases: [string, string][] = [
      ['application/pdf', 'pdf'],
      ['text/csv', 'csv'],
      ['text/html', 'html'],
      ['text/plain', 'txt'],
      ['text/markdown', 'md'],
      ['application/msword', 'doc'],
      ['application/vnd.openxmlformats-officedocument.wordprocessingml.document', 'docx'],
      ['application/vnd.ms-excel', 'xls'],
      ['application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', 'xlsx'],
    ];
    for (const [mimeType, format] of cases) {
      const doc = toResultContent({
        type: 'resource',
        resource: { uri: 'https://h/reports/Q3 report.v2.pdf', mimeType, blob: b64('data') },
      });
      expect(doc).toMatchObject({ document: { format, name: 'Q3 report-v2' } });
      expect(bytesOf(doc)).toBe('data');
    }
  });

  it('a blob of another type becomes a text note naming the resource', () => {
    expect(
      toResultContent({
        type: 'resource',
        resource: { uri: 'file:///b.bin', mimeType: 'application/octet-stream', blob: b64('abc') },
      }),
    ).toEqual({
      text: '[resource file:///b.bin of type application/octet-stream, 3 bytes, left out: skein tool results cannot carry it]',
    });
  });

  it('a resource link becomes a text naming it', () => {
    expect(
      toResultContent({ type: 'resource_link', uri: 'file:///c.txt', name: 'c', description: 'the c file' }),
    ).toEqual({
      text: '[resource link: c file:///c.txt (the c file)]',
    });
  });

  it('document names keep only what providers accept', () => {
    expect(documentName('file:///tmp/My_File (1).final.pdf')).toBe('My-File (1)-final');
    expect(documentName('urn:x')).toBe('urn-x');
    expect(documentName('file:///')).toBe('file-');
  });
});

describe('MCP tools/call result -> skein tool result', () => {
  it('content in order, then structuredContent as a json block', () => {
    expect(
      toToolResult('t1', { content: [{ type: 'text', text: '3' }], structuredContent: { sum: 3, parts: [1, 2] } }),
    ).toEqual({
      toolUseId: 't1',
      status: 'success',
      content: [{ text: '3' }, { json: { sum: 3, parts: [1, 2] } }],
    });
  });

  it('isError makes an error result, with a sentence when the server said nothing', () => {
    expect(toToolResult('t2', { isError: true, content: [{ type: 'text', text: 'no such file' }] })).toEqual({
      toolUseId: 't2',
      status: 'error',
      content: [{ text: 'no such file' }],
    });
    expect(toToolResult('t3', { isError: true, content: [] })).toEqual({
      toolUseId: 't3',
      status: 'error',
      content: [{ text: 'The tool reported an error without saying what went wrong.' }],
    });
  });

  it('an empty result is a json null, as for a skein tool returning nothing', () => {
    expect(toToolResult('t4', { content: [] })).toEqual({
      toolUseId: 't4',
      status: 'success',
      content: [{ json: null }],
    });
  });
});

describe('tool names', () => {
  it('prefix joined with _, characters providers reject turned into _', () => {
    expect(skeinToolName('read_file', 'fs')).toBe('fs_read_file');
    expect(skeinToolName('files/read.v2', undefined)).toBe('files_read_v2');
  });

  it('names over 64 characters are cut and keep a hash of the full name, so two long names stay apart', () => {
    const a = skeinToolName('x'.repeat(70) + 'a', 'srv');
    const b = skeinToolName('x'.repeat(70) + 'b', 'srv');
    expect(a).toHaveLength(64);
    expect(a).toMatch(/^srv_x+_[0-9a-f]{8}$/);
    expect(a).not.toBe(b);
  });
});
