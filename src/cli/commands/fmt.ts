// PLACEHOLDER until the Corefile model lands (issue #3); replaced by the real `fmt` command.
import type { CliIo } from '../io.js';
import { UsageError } from '../usage-error.js';

export async function runFmt(args: readonly string[], io: CliIo): Promise<number> {
  void args;
  void io;
  throw new UsageError('fmt is not available yet');
}
