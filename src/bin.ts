#!/usr/bin/env node
import { runProcess } from './cli/node-io.js';

// No top-level await: the executable is bundled as CommonJS (scripts/bundle-cli.mjs), and
// `runProcess` never rejects (`main` reports every error itself and returns an exit status).
void runProcess();
