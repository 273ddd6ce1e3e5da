/**
 * The process a watching studio runs (see `watchStudio`): starts the studio with the options in
 * `SKEIN_STUDIO_OPTIONS` (JSON) and prints one line, `{"url":...,"store":...}`, once it listens. Stops
 * gracefully on SIGTERM (running turns end at their next commit point).
 */
import { startStudio } from './start-studio.js';

const options = JSON.parse(process.env['SKEIN_STUDIO_OPTIONS'] ?? '{}') as {
  module: string;
  port: number;
  store?: string;
  cwd: string;
};
const studio = await startStudio({ ...options, handleSignals: true });
process.stdout.write(`${JSON.stringify({ url: studio.url, store: studio.store })}\n`);
