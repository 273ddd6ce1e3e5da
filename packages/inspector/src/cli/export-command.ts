import { writeFile } from 'node:fs/promises';
import { renderHtmlPage } from '../render/html-page.js';
import { pageData } from '../render/page-data.js';
import { loadSession } from '../view/load-session.js';
import { type CommandContext, need, userSession } from './command-line.js';
import { withStore } from './with-store.js';

/** `skein export <store> <sessionId> -o <file.html>`: one self-contained HTML page of the session. */
export async function exportCommand({ rest, values, io }: CommandContext): Promise<number> {
  return await withStore(need(rest[0], 'the store'), io.env, async (store) => {
    const output = need(values.output, 'the output file (-o run.html)');
    const sessionId = userSession(need(rest[1], 'the session id'), values);
    const data = pageData(await loadSession(store, sessionId, { internal: values.internal === true }));
    await writeFile(output, renderHtmlPage(data));
    io.stdout.write(`Wrote ${output}\n`);
    return 0;
  });
}
