/** What the linter is given to read a Corefile's imports with (src/lint/lint-imports.ts). Pure: types only. */

/** A file an import matched: its text, or a directory (CoreDNS stops: "is a directory"). */
export type ImportedFile = { readonly name: string; readonly text: string } | { readonly name: string; readonly directory: true };

/**
 * What the files are that `path` names, as CoreDNS globs it (Go's `filepath.Glob`, in lexical
 * order): `path` is an import's pattern joined with the directory of the file it is written in and
 * normalized, relative to the Corefile's directory (`conf.d/*.conf`, `../zones/db.x`), or absolute
 * as written. `name` of each match is its path in the same form (it names the file in findings,
 * and its own imports are read from its directory). `{ unresolved }` when the reader cannot tell
 * (an absolute path, a file outside what it reads, an unreadable file), with the reason.
 */
export type ImportReader = (path: string) => { readonly files: readonly ImportedFile[] } | { readonly unresolved: string };
