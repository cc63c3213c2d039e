import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, it, vi } from 'vitest';
import { ENTRY_SOURCES, pointPackageImports } from '../support/entries.js';

/**
 * Runs every ```ts block of docs/*.md as a module, with the package name pointing at src/, so the
 * documented examples cannot rot. Blocks assert their own results with node:assert. What a block
 * prints is kept out of the test output and shown only when the block fails.
 */
const docs = join(import.meta.dirname, '../../docs');
const scratch = join(import.meta.dirname, '.examples');
const root = join(import.meta.dirname, '../..');

function examples(markdown: string): string[] {
  return [...markdown.matchAll(/^```ts\n([\s\S]*?)^```$/gm)].map((match) => match[1] ?? '');
}

mkdirSync(scratch, { recursive: true });

const documented = readdirSync(docs)
  .filter((file) => file.endsWith('.md'))
  .map((file) => [file, examples(readFileSync(join(docs, file), 'utf8'))] as const)
  .filter(([, blocks]) => blocks.length > 0);

describe.each(documented)('examples in docs/%s', (file, blocks) => {
  it.each(blocks.map((block, index) => [index + 1, block] as const))('example %i runs', async (index, block) => {
    const path = join(scratch, `${file.replace(/\W/g, '-')}-${index}.ts`);
    writeFileSync(path, pointPackageImports(block, (entry) => join(root, ENTRY_SOURCES[entry] ?? '')));
    const printed: string[] = [];
    const capture = (...values: unknown[]): void => void printed.push(values.map(String).join(' '));
    const spies = (['log', 'info', 'warn', 'error'] as const).map((method) => vi.spyOn(console, method).mockImplementation(capture));
    try {
      await import(pathToFileURL(path).href);
    } catch (error) {
      if (printed.length > 0 && error instanceof Error) error.message += `\n--- the example printed:\n${printed.join('\n')}`;
      throw error;
    } finally {
      for (const spy of spies) spy.mockRestore();
    }
  });
});
