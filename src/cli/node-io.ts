import { closeSync, fstatSync, openSync, readdirSync, readSync, statSync, writeSync } from 'node:fs';
import { InputTooLargeError } from './io.js';
import type { CliIo, DirectoryEntry, OutputStream } from './io.js';
import { main } from './main.js';

async function readAll(stream: NodeJS.ReadableStream, maxBytes = Number.POSITIVE_INFINITY): Promise<Uint8Array> {
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of stream) {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    total += bytes.length;
    if (total > maxBytes) throw new InputTooLargeError(maxBytes);
    chunks.push(bytes);
  }
  return Buffer.concat(chunks);
}

/** How much of a FILE one read asks for. */
const READ_CHUNK = 64 * 1024;

/**
 * Reads FILE, counting bytes as they arrive: the size `stat` reports says nothing for a FIFO, a
 * device (`/dev/zero`, `/dev/urandom`) or a symbolic link to one, nor for a file that grows while
 * it is read. A regular file larger than `maxBytes` is refused before any of it is read; anything
 * else is refused as soon as more than `maxBytes` arrived, never holding more than that. The reads
 * are synchronous (the CLI reads one input at a time): Node's file streams and promises, which
 * cost start-up time, are not loaded for it.
 */
export async function readBoundedFile(path: string, maxBytes = Number.POSITIVE_INFINITY): Promise<Uint8Array> {
  const descriptor = openSync(path, 'r');
  try {
    const info = fstatSync(descriptor);
    if (info.isDirectory()) throw Object.assign(new Error(`EISDIR: ${path}`), { code: 'EISDIR' });
    if (info.isFile() && info.size > maxBytes) throw new InputTooLargeError(maxBytes);
    const chunks: Buffer[] = [];
    let total = 0;
    for (;;) {
      const buffer = Buffer.allocUnsafe(READ_CHUNK);
      const read = readSync(descriptor, buffer, 0, READ_CHUNK, null);
      if (read === 0) break;
      total += read;
      if (total > maxBytes) throw new InputTooLargeError(maxBytes);
      chunks.push(read === READ_CHUNK ? buffer : buffer.subarray(0, read));
    }
    return chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, total);
  } finally {
    closeSync(descriptor);
  }
}

/**
 * FILE as it is read, one chunk of {@link READ_CHUNK} bytes at a time (synchronous reads, as in
 * {@link readBoundedFile}); a directory is refused at the first chunk.
 */
async function* readFileChunks(path: string): AsyncGenerator<Uint8Array> {
  const descriptor = openSync(path, 'r');
  try {
    if (fstatSync(descriptor).isDirectory()) throw Object.assign(new Error(`EISDIR: ${path}`), { code: 'EISDIR' });
    for (;;) {
      const buffer = Buffer.allocUnsafe(READ_CHUNK);
      const read = readSync(descriptor, buffer, 0, READ_CHUNK, null);
      if (read === 0) return;
      yield read === READ_CHUNK ? buffer : buffer.subarray(0, read);
    }
  } finally {
    closeSync(descriptor);
  }
}

/**
 * Standard output or error written with `write(2)` on its descriptor, as Node writes files and
 * pipes on Linux anyway, without building `process.stdout`'s stream (which costs start-up time):
 * a descriptor that refuses to wait (EAGAIN, a non-blocking pipe) hands the rest, and every later
 * chunk, to Node's stream. A closed pipe (`… | head`) ends the process with its status so far,
 * not with a stack trace.
 */
function descriptorOutput(descriptor: 1 | 2, stream: () => NodeJS.WriteStream): OutputStream {
  let fallback: NodeJS.WriteStream | undefined;
  const toStream = (rest: Uint8Array | string): void => {
    if (fallback === undefined) {
      fallback = stream();
      fallback.on('error', (error: NodeJS.ErrnoException) => {
        if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
        throw error;
      });
    }
    fallback.write(rest);
  };
  return {
    write: (chunk) => {
      if (fallback !== undefined) return toStream(chunk);
      let bytes = Buffer.from(chunk, 'utf8');
      while (bytes.length > 0) {
        try {
          bytes = bytes.subarray(writeSync(descriptor, bytes));
        } catch (error) {
          const code = (error as NodeJS.ErrnoException).code;
          if (code === 'EPIPE') process.exit(process.exitCode ?? 0);
          if (code !== 'EAGAIN') throw error;
          return toStream(bytes);
        }
      }
    },
    get isTTY() {
      // node:tty is loaded only when asked (only `--batch` asks): it brings node:net and
      // node:stream, a few milliseconds of start-up that no other run needs.
      return process.getBuiltinModule('node:tty').isatty(descriptor);
    },
  };
}

/** The real process behind the CLI: argv, stdio and the file system. */
function processIo(): CliIo {
  return {
    stdout: descriptorOutput(1, () => process.stdout),
    stderr: descriptorOutput(2, () => process.stderr),
    stdinChunks: () => process.stdin,
    readStdin: (maxBytes) => readAll(process.stdin, maxBytes),
    readFile: readBoundedFile,
    listDirectory,
    fileChunks: readFileChunks,
    writeOutputFile,
    openOutputStream: async (path) => (await import('./output-file.js')).openOutputStream(path),
  };
}

/** A directory's entries, each as a symbolic link leads (a broken link, a FIFO or a device is `other`). */
async function listDirectory(path: string): Promise<readonly DirectoryEntry[]> {
  return readdirSync(path).map((name) => {
    const info = statSync(`${path}/${name}`, { throwIfNoEntry: false });
    return { name, kind: info === undefined ? 'other' : info.isFile() ? 'file' : info.isDirectory() ? 'directory' : 'other' };
  });
}

/** The --out helpers are loaded only with --out: start-up pays for no module it does not use. */
async function writeOutputFile(path: string, content: string): Promise<void> {
  return (await import('./output-file.js')).writeOutputFile(path, content);
}

/** Entry point of the `kube-dns-to-coredns` binary. */
export async function runProcess(): Promise<void> {
  process.exitCode = await main(process.argv.slice(2), processIo());
}
