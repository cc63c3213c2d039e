import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, it } from 'vitest';
import { ENTRY_SOURCES, pointPackageImports } from '../support/entries.js';

/**
 * Runs the ```ts examples of docs/corefile-model.md against src/ (test/docs runs every page's
 * examples; this file keeps the Corefile model's next to its tests).
 */
const markdown = readFileSync(join(import.meta.dirname, '../../docs/corefile-model.md'), 'utf8');
const blocks = [...markdown.matchAll(/^```ts\n([\s\S]*?)^```$/gm)].map((match) => match[1] ?? '');
const scratch = mkdtempSync(join(tmpdir(), 'corefile-model-examples-'));
const root = join(import.meta.dirname, '../..');

describe('examples in docs/corefile-model.md', () => {
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  it('has examples', () => {
    if (blocks.length < 4) throw new Error(`only ${blocks.length} examples found`);
  });

  it.each(blocks.map((block, index) => [index + 1, block] as const))('example %i runs', async (index, block) => {
    const path = join(scratch, `corefile-model-${index}.ts`);
    writeFileSync(path, pointPackageImports(block, (entry) => join(root, ENTRY_SOURCES[entry] ?? '')));
    await import(pathToFileURL(path).href);
  });
});
