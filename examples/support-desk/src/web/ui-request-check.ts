/**
 * A customer's `POST .../ui` may carry a new message, never an answer to an approval: with the AI
 * SDK the client answers approvals by sending its last assistant message back with
 * `addToolApprovalResponse`'s parts, and on the desk a person on the team answers them. This reads
 * the request's copy (at most `maxBytes`; a larger or malformed body is left to `@skein/server`,
 * which refuses it) and says whether its last message is an assistant's.
 */

async function readAtMost(request: Request, maxBytes: number): Promise<string | undefined> {
  const reader = request.clone().body?.getReader();
  if (!reader) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel();
      return undefined;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** True when the UI request's last message is the assistant's (an approval answer). */
export async function answersApprovals(request: Request, maxBytes: number): Promise<boolean> {
  const text = await readAtMost(request, maxBytes);
  if (text === undefined) return false;
  try {
    const body = JSON.parse(text) as { messages?: { role?: unknown }[] };
    return Array.isArray(body.messages) && body.messages.at(-1)?.role === 'assistant';
  } catch {
    return false;
  }
}
