/**
 * `GET /studio/inspect/{conversationId}`: the inspector's page for one conversation of the studio's
 * store (`@skein/inspector`'s `loadSession`, `pageData` and `renderHtmlPage`, the same page `skein
 * show --html` and `skein serve` draw): the run's timeline, each node's conversation with its tool
 * calls and usage, the transitions and the steps. Read-only; the store is opened once, at the first
 * request, and closed with the studio.
 */
import { checkSessionId } from '@skein/core';
import { loadSession, openStore, PAGE_CSP, pageData, renderHtmlPage, type InspectorStore } from '@skein/inspector';
import { PROBLEM_MEDIA_TYPE } from '@skein/server';

/** A problem document (RFC 9457), as the server's routes answer. */
function problem(status: number, title: string, detail: string): Response {
  const type = `https://skein.dev/problems#${title.toLowerCase().replace(/\W+/g, '-')}`;
  return new Response(JSON.stringify({ type, title, status, detail }), {
    status,
    headers: { 'content-type': PROBLEM_MEDIA_TYPE },
  });
}

/** The route's handler on the store `spec` (`undefined`: the studio was given a sessions function, which the inspector cannot read). */
export function inspectRoute(spec: string | undefined): {
  handle(conversationId: string): Promise<Response>;
  close(): Promise<void>;
} {
  let store: InspectorStore | undefined;
  return {
    handle: async (conversationId) => {
      if (spec === undefined)
        return problem(
          404,
          'No inspector',
          'This studio stores conversations through your own sessions function, which the inspector cannot read; open the store with `skein serve <store>` instead.',
        );
      try {
        checkSessionId(conversationId, 'conversation id');
        if (/^skein-/i.test(conversationId)) throw new Error('ids starting with "skein-" are the server\'s own');
      } catch (error) {
        const why = error instanceof Error ? error.message : String(error);
        return problem(400, 'Bad conversation id', `${why}. Use the id of a conversation listed on the page.`);
      }
      store ??= openStore(spec);
      const view = await loadSession(store, conversationId);
      if (view.createdAt === undefined)
        return problem(
          404,
          'No such conversation',
          `The store holds no conversation ${JSON.stringify(conversationId)}.`,
        );
      return new Response(renderHtmlPage(pageData(view)), {
        headers: {
          'content-type': 'text/html; charset=utf-8',
          'content-security-policy': `${PAGE_CSP}; frame-ancestors 'none'`,
          'cache-control': 'no-store',
        },
      });
    },
    close: async () => {
      await store?.close();
    },
  };
}
