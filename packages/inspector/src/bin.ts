#!/usr/bin/env node
import { processIo } from './cli/cli-io.js';
import { runCli } from './cli/run-cli.js';

const code = await runCli(process.argv.slice(2), processIo());
if ((process.argv[2] !== 'serve' && process.argv[2] !== 'mcp') || code !== 0) process.exitCode = code;
