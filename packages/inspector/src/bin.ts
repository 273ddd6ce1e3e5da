#!/usr/bin/env node
import { processIo } from './cli/cli-io.js';
import { runCli } from './cli/run-cli.js';

const code = await runCli(process.argv.slice(2), processIo());
if (!['serve', 'mcp', 'studio'].includes(process.argv[2] ?? '') || code !== 0) process.exitCode = code;
