/**
 * The only doors the CLI has to the outside world. `main` receives one of these, so every command
 * is a plain function that tests call in-process with an in-memory implementation.
 */
export interface OutputStream {
  write(chunk: string): void;
  /** True when the stream is a terminal (progress lines are only drawn then). */
  readonly isTTY?: boolean;
}

export interface CliIo {
  readonly stdout: OutputStream;
  readonly stderr: OutputStream;
  /**
   * Standard input as it arrives, chunk by chunk, for `--batch`, which answers each line before the
   * next one arrives. Optional: without it `--batch` reads all of standard input first.
   */
  readonly stdinChunks?: () => AsyncIterable<Uint8Array>;
  /**
   * Reads all of standard input as bytes; rejects with an {@link InputTooLargeError} as soon as it
   * exceeds `maxBytes`, without holding more than that in memory.
   */
  readStdin(maxBytes?: number): Promise<Uint8Array>;
  /**
   * A file as it is read, chunk by chunk, for `--batch FILE`, which holds at most one line of it
   * (a FIFO, a device such as `/dev/zero`, a symbolic link to one). Rejects on the first iteration
   * with the system error when it cannot be read. Optional: without it `--batch` reads FILE whole.
   */
  readonly fileChunks?: (path: string) => AsyncIterable<Uint8Array>;
  /**
   * Reads a whole file as bytes; rejects with the system error when it cannot be read, and with an
   * {@link InputTooLargeError} (before reading) when it is larger than `maxBytes`.
   */
  readFile(path: string, maxBytes?: number): Promise<Uint8Array>;
  /**
   * The entries of a directory, each a regular file, a directory, or something else (a FIFO, a
   * device, a broken symbolic link), as a symbolic link leads (for `lint FILE`, which reads the
   * files a Corefile imports next to FILE). Rejects with the system error (`ENOENT`, `ENOTDIR`).
   * Optional: without it imports are not read.
   */
  readonly listDirectory?: (path: string) => Promise<readonly DirectoryEntry[]>;
  /**
   * Writes `content` to `path` for `--out` (see docs/cli.md): a regular file (or one a symbolic link
   * leads to) is replaced all at once, keeping its mode and owner — readers see the old file or the
   * new one, never a part; a FIFO or a character device is written to directly; anything else is
   * refused. Rejects with an {@link OutputFileError} whose message does not name the path (the
   * caller names the path the user gave).
   */
  writeOutputFile(path: string, content: string): Promise<void>;
  /**
   * `--out FILE` for output written as it comes (`--batch`), so that it is never held whole: the
   * same targets as {@link writeOutputFile}, a regular file written to a temporary file next to it
   * and renamed over it by `commit`, a FIFO or a character device opened at the first write.
   * Optional: without it the output is collected and written by `writeOutputFile`. Rejects, and
   * `write` throws, with an {@link OutputFileError}.
   */
  readonly openOutputStream?: (path: string) => Promise<OutputFileStream>;
}

/** One entry of {@link CliIo.listDirectory}. */
export interface DirectoryEntry {
  readonly name: string;
  readonly kind: 'file' | 'directory' | 'other';
}

/** An output file being written (see {@link CliIo.openOutputStream}). */
export interface OutputFileStream {
  write(chunk: string): void;
  /** Makes the output the file's content (renames the temporary file over FILE) and closes it. */
  commit(): Promise<void>;
  /** Closes and removes what was written (a FIFO or device keeps what it got); never rejects. */
  discard(): Promise<void>;
}

/** An input larger than the command accepts. */
export class InputTooLargeError extends Error {
  override readonly name = 'InputTooLargeError';
  readonly maxBytes: number;

  constructor(maxBytes: number) {
    super(`larger than ${maxBytes} bytes`);
    this.maxBytes = maxBytes;
  }
}

/** `--out` could not write its target; the message says why without naming a path. */
export class OutputFileError extends Error {
  override readonly name = 'OutputFileError';
  /** The system error code behind it (`ENOENT`, `EFBIG`, ...), when there is one. */
  readonly code: string | undefined;

  constructor(message: string, options: { code?: string | undefined; cause?: unknown } = {}) {
    super(message, { cause: options.cause });
    this.code = options.code;
  }
}
