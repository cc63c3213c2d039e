import { readFile, stat } from 'node:fs/promises';
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

async function readBoundedFile(path: string, maxBytes = Number.POSITIVE_INFINITY): Promise<Uint8Array> {
  const { size } = await stat(path);
  if (size > maxBytes) throw new InputTooLargeError(maxBytes);
  return readFile(path);
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
