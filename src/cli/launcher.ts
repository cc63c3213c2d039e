import { existsSync, readFileSync } from 'node:fs';
import * as nodeModule from 'node:module';
import { join } from 'node:path';
import { Script } from 'node:vm';

/**
 * How the executable (`dist/bundle/kube-dns-to-coredns.cjs`, this module bundled) loads the CLI:
 * the chunks of dist/bundle/ (scripts/bundle-cli.mjs), each compiled with the V8 code cache the
 * build recorded for it, so that a run does not parse and compile again the functions it runs.
 *
 * The build runs typical commands in-process through {@link chunkLoader} and writes each chunk's
 * cache to `code-cache/NODE_VERSION-ARCH/CHUNK.cache` (docs/performance.md, "Start-up"). V8
 * accepts a cache only from the same V8 version and flags and for a source of the same length;
 * otherwise it compiles the chunk as usual. Without a cache for the running Node, the chunks are
 * loaded with Node's own `require`, after `module.enableCompileCache()` where Node has it (22.1 and
 * later: Node then keeps the cache itself, in its temporary directory). NODE_DISABLE_COMPILE_CACHE
 * turns both off, as it does Node's.
 */

/** The chunk every run loads first: it exports {@link CliChunk}. */
export const CLI_CHUNK = './cli.cjs';

/** What the first chunk exports (src/cli/executable.ts). */
export interface CliChunk {
  readonly runProcess: () => Promise<void>;
  readonly main: (argv: readonly string[], io: unknown) => Promise<number>;
}

export interface ChunkLoader {
  /** The exports of `./NAME.cjs` (loaded once), or of a package or Node module by its name. */
  require(specifier: string): unknown;
  /** Each chunk loaded so far with its code cache as V8 has it now (every function compiled so far). */
  codeCaches(): ReadonlyMap<string, Buffer>;
  /** The chunks loaded so far whose cache V8 refused (another V8, other flags, another source): compiled anew. */
  rejected(): readonly string[];
}

/** The directory of the code caches for the running Node and processor in `directory`. */
export function codeCacheDirectory(directory: string): string {
  return join(directory, 'code-cache', `${process.version}-${process.arch}`);
}

/**
 * Each chunk file is one statement (scripts/bundle-options.mjs, `wrapChunk`): its code in the
 * function Node would wrap a CommonJS module in, assigned to `module.exports` when Node's `require`
 * loads the file and left as the statement's value when `vm.Script` runs it (at a script's top
 * level `this` is the global object). So the text read is compiled as it is: no wrapped copy of
 * each chunk is made at every start (it cost a young-generation collection in most runs).
 */
type ChunkFunction = (exports: unknown, require: (specifier: string) => unknown, module: { exports: unknown }, filename: string, dirname: string) => void;

/**
 * Loads the chunks of `directory` through `vm.Script` with the code cache of `cache` (a
 * {@link codeCacheDirectory}, or undefined for none), keeping the scripts so that their caches can
 * be written ({@link ChunkLoader.codeCaches}); with `viaRequire`, through Node's `require` instead
 * (so that Node's own compile cache applies, where it has one). Anything but a chunk (`node:fs`,
 * `ajv/…`) is Node's `require` from `directory`.
 */
export function chunkLoader(directory: string, cache: string | undefined, { viaRequire = false }: { readonly viaRequire?: boolean } = {}): ChunkLoader {
  const nodeRequire = nodeModule.createRequire(join(directory, 'cli.cjs'));
  const loaded = new Map<string, { exports: unknown }>();
  const scripts = new Map<string, Script>();
  const rejected: string[] = [];
  const compile = (name: string, filename: string): ChunkFunction => {
    if (viaRequire) return nodeRequire(filename) as ChunkFunction;
    const source = readFileSync(filename, 'utf8');
    const cachedData = cache === undefined ? undefined : readCache(join(cache, `${name}.cache`));
    const script = new Script(source, { filename, ...(cachedData === undefined ? {} : { cachedData }) });
    scripts.set(name, script);
    if (script.cachedDataRejected === true) rejected.push(name);
    return script.runInThisContext() as ChunkFunction;
  };
  const load = (specifier: string): unknown => {
    if (!specifier.startsWith('./')) return nodeRequire(specifier);
    const name = specifier.slice(2);
    const known = loaded.get(name);
    if (known !== undefined) return known.exports;
    const filename = join(directory, name);
    const chunk = compile(name, filename);
    const module = { exports: {} as unknown };
    loaded.set(name, module);
    chunk.call(module.exports, module.exports, load, module, filename, directory);
    return module.exports;
  };
  return {
    require: load,
    codeCaches: () => new Map([...scripts].map(([name, script]) => [name, script.createCachedData()])),
    rejected: () => [...rejected],
  };
}

function readCache(path: string): Buffer | undefined {
  try {
    return readFileSync(path);
  } catch {
    // A chunk the build's runs did not load has no cache: it is compiled as usual.
    return undefined;
  }
}

/** Runs the CLI of the chunks in `directory` (the executable's own directory). */
export function launch(directory: string): void {
  const disabled = process.env['NODE_DISABLE_COMPILE_CACHE'] !== undefined;
  const cache = codeCacheDirectory(directory);
  const cached = !disabled && existsSync(cache);
  if (!cached && !disabled) (nodeModule as { enableCompileCache?: () => unknown }).enableCompileCache?.();
  const cli = chunkLoader(directory, cached ? cache : undefined, { viaRequire: !cached }).require(CLI_CHUNK) as CliChunk;
  void cli.runProcess();
}
