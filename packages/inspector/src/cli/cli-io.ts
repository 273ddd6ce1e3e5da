/** Where the CLI writes; the process's streams by default, buffers in tests. */
export interface CliIo {
  stdout: { write(chunk: string): unknown; isTTY?: boolean };
  stderr: { write(chunk: string): unknown };
  env: NodeJS.ProcessEnv;
  cwd: string;
}

/** The process's own streams. */
export function processIo(): CliIo {
  return { stdout: process.stdout, stderr: process.stderr, env: process.env, cwd: process.cwd() };
}

/**
 * The command the user ran skein by, for the commands it suggests: `npm run skein --` through an npm
 * script named `skein` (as in the skein repository), `npx skein` through npx, else `skein`.
 */
export function skeinCommand(env: NodeJS.ProcessEnv): string {
  const event = env['npm_lifecycle_event'];
  return event === 'skein' ? 'npm run skein --' : event === 'npx' ? 'npx skein' : 'skein';
}

/** A usage error: printed with the usage line, exit code 2. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

export const USAGE = `Usage: skein <command> ...

  skein sessions <store> [--internal] [--json]
      The sessions there, newest first. A store is a directory (or file:<dir>), s3://bucket/prefix,
      sqlite:<file.db> or postgres://user@host:port/database. A server's own sessions and records
      (ids beginning with skein-) are hidden unless --internal (also for show, export and serve).
  skein sessions copy <from-store> <to-store>
      Copies every session into another store (of any kind), then checks both read back equal.
  skein memory <store> [<resource>] [--json]
      The resources with long-term memory there, or one resource's working memory, facts and
      remembered messages by conversation.
  skein memory forget <store> <resource>
      Erases everything kept of the resource (documents, messages, vectors, index entries).
  skein show <store> <sessionId> [--agent <id>] [--full] [--steps] [--internal] [--json]
      An orchestrator's run as a timeline, or an agent's conversation; --steps lists every kept step
      of every run (its number, transitions, what was running, waiting, paused and done).
  skein fork <store> <sessionId> --step <n> --to <newSessionId> [--orchestrator <id>]
      A new session in the same store whose run continues from step n (the session is only read);
      prints what to run next.
  skein export <store> <sessionId> -o <file.html> [--internal]
      One self-contained HTML page: the graph, the timeline, the conversations, and a step slider
      that shows them as they were at each kept step.
  skein serve <store> [--port <n>] [--internal]
      The same pages on http://127.0.0.1, updating live while a run writes.
  skein graph <module> [export]
      Print the Mermaid of a graph (or anything with toMermaid()) exported by a module.
  skein mcp serve <module> [export]
      Serve the agents, graphs and swarms a module declares (the options of serveMcp from @skein/mcp)
      as MCP tools on stdin/stdout, for a desktop MCP client. SKEIN_MCP_AUTHORIZATION is sent to
      authorize as the authorization header of every call.
  skein studio [module] [--port <n>] [--store <store>]
      Develop in the browser (@skein/studio): chat with the agents, graphs and swarms a module
      exports, watch a graph run, approve, rewind and fork. On http://127.0.0.1; conversations in
      --store (default sqlite:.skein/studio.db). Default module: skein.studio.ts.
  skein eval run <module> [export] [--out <dir>] [--resume] [--concurrency <n>] [--repeats <n>]
                 [--baseline <results>] [--threshold <x>]
      Run the evaluation a module exports; exit 1 when a case fails (with --baseline: when a
      scorer's mean dropped more than the threshold, default 0).
  skein eval compare <base results> <new results> [--threshold <x>] [--json]
      Per-case regressions and improvements; exit 1 when a scorer's mean dropped more than the threshold.
  skein eval show <results> [--json]
      The summary of a stored evaluation (a results.jsonl or its directory).
  skein eval export <results> -o <eval.html> [--store <dir | s3://...>]
      The evaluation's page, with each run's page beside it (linked) when its sessions can be read.

S3 stores use the AWS environment (AWS_REGION, credentials, AWS_ENDPOINT_URL for S3-compatible servers).
`;
