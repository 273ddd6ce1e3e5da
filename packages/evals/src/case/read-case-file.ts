/** Reads cases from a JSONL file (one case per line) or a JSON file (an array of cases). */
import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { ConfigurationError } from '@skein/core';
import type { CaseSource } from './check-cases.js';

/**
 * The cases of `file`, each with its origin (`cases.jsonl line 4`). Blank lines and lines starting
 * with `//` are skipped; a line that is not JSON becomes a case with an error (the others still run).
 */
export async function readCaseFile(file: string): Promise<CaseSource[]> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new ConfigurationError(`Cannot read the cases file ${file}: ${(error as Error).message}`, { cause: error });
  }
  const name = basename(file);
  if (file.endsWith('.json')) {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      throw new ConfigurationError(`${file} is not JSON: ${(error as Error).message}`, { cause: error });
    }
    if (!Array.isArray(value)) throw new ConfigurationError(`${file} must hold an array of cases.`);
    return value.map((v: unknown, i) => ({ value: v, origin: `${name} [${i}]` }));
  }
  return parseCaseLines(text, name);
}

/** The cases of JSONL text (pure). */
export function parseCaseLines(text: string, name: string): CaseSource[] {
  const sources: CaseSource[] = [];
  text.split('\n').forEach((line, i) => {
    const trimmed = line.trim();
    if (!trimmed || trimmed.startsWith('//')) return;
    const origin = `${name} line ${i + 1}`;
    try {
      sources.push({ value: JSON.parse(trimmed) as unknown, origin });
    } catch (error) {
      const id = /"id"\s*:\s*"([^"]*)"/.exec(trimmed)?.[1];
      sources.push({ value: id ? { id } : null, origin, error: `not JSON: ${(error as Error).message}` });
    }
  });
  return sources;
}
