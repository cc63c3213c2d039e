import { open } from 'node:fs/promises';
import { InputTooLargeError } from './io.js';
import type { CliIo } from './io.js';
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

/**
 * Reads FILE, counting bytes as they arrive: the size `stat` reports says nothing for a FIFO, a
 * device (`/dev/zero`, `/dev/urandom`) or a symbolic link to one, nor for a file that grows while
 * it is read. A regular file larger than `maxBytes` is refused before any of it is read; anything
 * else is refused as soon as more than `maxBytes` arrived, never holding more than that.
 */
export async function readBoundedFile(path: string, maxBytes = Number.POSITIVE_INFINITY): Promise<Uint8Array> {
  const handle = await open(path, 'r');
  try {
    const info = await handle.stat();
    if (info.isDirectory()) throw Object.assign(new Error(`EISDIR: ${path}`), { code: 'EISDIR' });
    if (info.isFile() && info.size > maxBytes) throw new InputTooLargeError(maxBytes);
    return await readAll(handle.createReadStream({ autoClose: false }), maxBytes);
  } finally {
    await handle.close();
  }
}

/** The real process behind the CLI: argv, stdio and the file system. */
function processIo(): CliIo {
  // A closed pipe (`… | head`) is not an error worth a stack trace.
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw error;
  });
  return {
    stdout: { write: (chunk) => void process.stdout.write(chunk), isTTY: process.stdout.isTTY === true },
    stderr: { write: (chunk) => void process.stderr.write(chunk), isTTY: process.stderr.isTTY === true },
    stdinChunks: () => process.stdin,
    readStdin: (maxBytes) => readAll(process.stdin, maxBytes),
    readFile: readBoundedFile,
    writeOutputFile,
    openOutputStream: async (path) => (await import('./output-file.js')).openOutputStream(path),
  };
}

/** The --out helpers are loaded only with --out: start-up pays for no module it does not use. */
async function writeOutputFile(path: string, content: string): Promise<void> {
  return (await import('./output-file.js')).writeOutputFile(path, content);
}

/** Entry point of the `kube-dns-to-coredns` binary. */
export async function runProcess(): Promise<void> {
  process.exitCode = await main(process.argv.slice(2), processIo());
}
