#!/usr/bin/env node
import { launch } from './cli/launcher.js';

// The executable (dist/bundle/kube-dns-to-coredns.cjs, CommonJS: see scripts/bundle-cli.mjs) loads
// the CLI's chunks next to it with their code cache. No top-level await in the chunks: `runProcess`
// never rejects (`main` reports every error itself and returns an exit status).
launch(import.meta.dirname);
