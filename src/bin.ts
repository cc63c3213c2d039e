#!/usr/bin/env node
import { runProcess } from './cli/node-io.js';

await runProcess();
