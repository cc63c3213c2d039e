import { closeSync, openSync, readFileSync, readSync } from 'node:fs';
import * as nodeModule from 'node:module';
import { join } from 'node:path';
import { Script } from 'node:vm';

/**
 * How the executable (`dist/bundle/kube-dns-to-coredns.cjs`, this module bundled) loads the CLI:
 * the chunks of dist/bundle/ (scripts/bundle-cli.mjs), each compiled with the V8 code cache the
 * build recorded for it, so that a run does not parse and compile again the functions it runs.
 *
 * The build runs typical commands in-process through {@link chunkLoader} and writes every chunk's
 * cache into one file, `code-cache/NODE_VERSION-ARCH.bin` ({@link packCodeCaches}; docs/performance.md,
 * "Start-up"), which a run opens once and reads each chunk's cache from as it loads the chunk. V8
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
  /** Whether the loader has a code cache file to read (see {@link chunkLoader}). */
  cached(): boolean;
}

/** The file of the code caches for the running Node and processor in `directory`. */
export function codeCacheFile(directory: string): string {
  return join(directory, 'code-cache', `${process.version}-${process.arch}.bin`);
}

/**
 * Every chunk's code cache in one file: a 4-byte little-endian length, that many bytes of a JSON
 * index (chunk name → [offset, length], the offset counted from the index's end), then the
 * caches. One file opened per run instead of one per chunk loaded (docs/performance.md, "Start-up,
 * third pass").
 */
export function packCodeCaches(caches: ReadonlyMap<string, Uint8Array>): Buffer {
  const names = [...caches.keys()].sort();
  const entries: Record<string, [number, number]> = {};
  let offset = 0;
  for (const name of names) {
    const length = caches.get(name)?.length ?? 0;
    entries[name] = [offset, length];
    offset += length;
  }
  const index = Buffer.from(JSON.stringify(entries));
  const head = Buffer.alloc(4);
  head.writeUInt32LE(index.length);
  return Buffer.concat([head, index, ...names.map((name) => caches.get(name) ?? new Uint8Array())]);
}

/** The caches of a {@link packCodeCaches} file, each read when asked for; undefined when there is no such file. */
function openCodeCaches(path: string): ((name: string) => Buffer | undefined) | undefined {
  let descriptor: number;
  try {
    descriptor = openSync(path, 'r');
  } catch {
    return undefined;
  }
  const read = (length: number, position: number): Buffer | undefined => {
    try {
      const bytes = Buffer.allocUnsafe(length);
      return readSync(descriptor, bytes, 0, length, position) === length ? bytes : undefined;
    } catch {
      return undefined;
    }
  };
  const length = read(4, 0)?.readUInt32LE(0);
  const index = length === undefined ? undefined : read(length, 4);
  let entries: Record<string, readonly [number, number] | undefined> | undefined;
  try {
    if (index !== undefined) entries = JSON.parse(index.toString('latin1')) as typeof entries;
  } catch {
    entries = undefined;
  }
  if (index === undefined || entries === undefined || typeof entries !== 'object' || entries === null) {
    // A cut or foreign file: no cache, the chunks compile as usual.
    closeSync(descriptor);
    return undefined;
  }
  const known = entries;
  const start = 4 + index.length;
  // The descriptor stays open while chunks may load: the process ends with it.
  return (name) => {
    const entry = Object.hasOwn(known, name) ? known[name] : undefined;
    return Array.isArray(entry) ? read(entry[1], start + entry[0]) : undefined;
  };
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
 * Loads the chunks of `directory` through `vm.Script` with the code caches of `cache` (a
 * {@link codeCacheFile}, or undefined for none; a missing file is none), keeping the scripts so that their caches can
 * be written ({@link ChunkLoader.codeCaches}); with `viaRequire`, through Node's `require` instead
 * (so that Node's own compile cache applies, where it has one). Anything but a chunk (`node:fs`,
 * `ajv/…`) is Node's `require` from `directory`.
 */
export function chunkLoader(directory: string, cache: string | undefined, { viaRequire = false }: { readonly viaRequire?: boolean } = {}): ChunkLoader {
  const nodeRequire = nodeModule.createRequire(join(directory, 'cli.cjs'));
  const loaded = new Map<string, { exports: unknown }>();
  const scripts = new Map<string, Script>();
  const rejected: string[] = [];
  const caches = cache === undefined || viaRequire ? undefined : openCodeCaches(cache);
  const compile = (name: string, filename: string): ChunkFunction => {
    if (viaRequire) return nodeRequire(filename) as ChunkFunction;
    const source = readFileSync(filename, 'utf8');
    // A chunk the build's runs did not load has no cache: it is compiled as usual.
    const cachedData = caches?.(name);
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
    cached: () => caches !== undefined,
  };
}

/** Runs the CLI of the chunks in `directory` (the executable's own directory). */
export function launch(directory: string): void {
  const disabled = process.env['NODE_DISABLE_COMPILE_CACHE'] !== undefined;
  const loader = disabled ? undefined : chunkLoader(directory, codeCacheFile(directory));
  // No cache for the running Node (another version, or none built): Node's require, with Node's own cache where it has one.
  if (loader !== undefined && !loader.cached()) (nodeModule as { enableCompileCache?: () => unknown }).enableCompileCache?.();
  const chosen = loader?.cached() === true ? loader : chunkLoader(directory, undefined, { viaRequire: true });
  const cli = chosen.require(CLI_CHUNK) as CliChunk;
  void cli.runProcess();
}
