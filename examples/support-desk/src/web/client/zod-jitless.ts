/**
 * Imported first by the page scripts: zod (inside the `ai` package) probes whether it may compile
 * code with `new Function`, which the pages' Content-Security-Policy forbids, and the browser logs
 * the refusal as an error. Jitless zod never probes.
 */
import { config } from 'zod';

config({ jitless: true });
