/**
 * The studio page's calls, all to `@skein/server`'s public routes (and `GET /studio/targets`): JSON
 * reads, and a turn (a message, answers) read as server-sent events as they come.
 */

/** One graph or swarm shape, as `GET /studio/targets` gives it. */
export interface Shape {
  nodes: string[];
  edges: { from: string; to: string; conditional: boolean; join?: boolean }[];
  entryPoints: string[];
}

/** A target the module declares. */
export interface TargetInfo {
  kind: 'agents' | 'graphs' | 'swarms';
  name: string;
  shape: Shape | null;
  /** The module has an eval set to run against it. */
  evals: boolean;
}

/** One event of a turn (`@skein/server`'s ServerEvent, read loosely). */
export interface TurnEvent {
  type: string;
  path?: string[];
  [key: string]: unknown;
}

/** A problem document's words, or the status. */
async function failure(response: Response): Promise<Error> {
  const body = (await response.json().catch(() => ({}))) as { detail?: string; title?: string };
  return new Error(body.detail ?? body.title ?? `HTTP ${response.status}`);
}

/** GETs JSON; throws with the problem's detail. */
export async function getJson<T>(url: string): Promise<T> {
  const response = await fetch(url, { headers: { accept: 'application/json' } });
  if (!response.ok) throw await failure(response);
  return (await response.json()) as T;
}

/** POSTs JSON and reads the JSON answer; throws with the problem's detail. */
export async function postJson<T>(url: string, body: unknown): Promise<T> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw await failure(response);
  return (await response.json()) as T;
}

/** POSTs a turn's body and calls `onEvent` for each server-sent event until the stream ends. */
export async function streamTurn(url: string, body: unknown, onEvent: (event: TurnEvent) => void): Promise<void> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
    body: JSON.stringify(body),
  });
  if (!response.ok || !response.body) throw await failure(response);
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffer += value;
    for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
      const frame = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const data = frame
        .split('\n')
        .filter((l) => l.startsWith('data: '))
        .map((l) => l.slice(6))
        .join('\n');
      if (data) onEvent(JSON.parse(data) as TurnEvent);
    }
  }
}
