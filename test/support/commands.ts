import { runCommand } from '../../src/cli/command.js';
import { checkCommand } from '../../src/cli/commands/check.js';
import { explainCommand } from '../../src/cli/commands/explain.js';
import { fmtCommand } from '../../src/cli/commands/fmt.js';
import { lintCommand } from '../../src/cli/commands/lint.js';
import type { CliIo } from '../../src/cli/io.js';

/** One command run through the CLI's preamble, its errors thrown (not reported as `main` does). */
export const runCheck = (args: readonly string[], io: CliIo): Promise<number> => runCommand(checkCommand, args, io);
export const runExplain = (args: readonly string[], io: CliIo): Promise<number> => runCommand(explainCommand, args, io);
export const runFmt = (args: readonly string[], io: CliIo): Promise<number> => runCommand(fmtCommand, args, io);
export const runLint = (args: readonly string[], io: CliIo): Promise<number> => runCommand(lintCommand, args, io);
