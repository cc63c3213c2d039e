import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, it } from 'vitest';

/**
 * Runs the ```ts examples of docs/corefile-model.md against src/corefile/index.ts, so they are
 * checked whether or not the package entry point re-exports the model yet (test/docs runs them
 * through src/index.ts as well).
 */
const markdown = readFileSync(join(import.meta.dirname, '../../docs/corefile-model.md'), 'utf8');
const blocks = [...markdown.matchAll(/^```ts\n([\s\S]*?)^```$/gm)].map((match) => match[1] ?? '');
const scratch = mkdtempSync(join(tmpdir(), 'corefile-model-examples-'));
const entry = join(import.meta.dirname, '../../src/corefile/index.js');

describe('examples in docs/corefile-model.md', () => {
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  it('has examples', () => {
    if (blocks.length < 4) throw new Error(`only ${blocks.length} examples found`);
  });

  it.each(blocks.map((block, index) => [index + 1, block] as const))('example %i runs', async (index, block) => {
    const path = join(scratch, `corefile-model-${index}.ts`);
    writeFileSync(path, block.replaceAll(/from 'kube-dns-to-coredns'/g, `from ${JSON.stringify(entry)}`));
    await import(pathToFileURL(path).href);
  });
});
