/**
 * What the executable's chunks export (dist/bundle/cli.cjs, loaded by launcher.ts): the process
 * entry, and `main` for the build, which runs typical commands in-process to record V8's code
 * cache of the chunks they load (scripts/bundle-cli.mjs).
 */
export { main } from './main.js';
export { runProcess } from './node-io.js';
