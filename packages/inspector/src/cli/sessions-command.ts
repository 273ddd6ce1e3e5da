import { paintFor } from '../render/ansi.js';
import { renderSessions } from '../render/text-sessions.js';
import { listSessionSummaries } from '../view/session-summary.js';
import { type CommandContext, need } from './command-line.js';
import { copySessions } from './copy-command.js';
import { withStore } from './with-store.js';

/** `skein sessions copy <from> <to>`: copies every session, then checks both stores read back equal. */
async function copyCommand({ rest, io }: CommandContext): Promise<number> {
  const [from, to] = [need(rest[1], 'the store to copy from'), need(rest[2], 'the store to copy into')];
  return await withStore(from, io.env, (source) =>
    withStore(
      to,
      io.env,
      async (target) => {
        const ids = await copySessions(source, target, (line) => io.stdout.write(`${line}\n`));
        io.stdout.write(
          `Copied ${ids.length} session(s) from ${source.label} to ${target.label}; both read back equal.\n`,
        );
        return 0;
      },
      true,
    ),
  );
}

/** `skein sessions <store>`: the sessions there, newest first (or `sessions copy`). */
export async function sessionsCommand(context: CommandContext): Promise<number> {
  const { rest, values, io } = context;
  if (rest[0] === 'copy') return await copyCommand(context);
  return await withStore(
    need(rest[0], 'the store (a directory, s3://bucket/prefix, sqlite:file.db or postgres://...)'),
    io.env,
    async (store) => {
      const list = await listSessionSummaries(store, { internal: values.internal === true });
      io.stdout.write(
        values.json ? `${JSON.stringify(list, null, 2)}\n` : renderSessions(list, paintFor(io.stdout, io.env)),
      );
      return 0;
    },
  );
}
