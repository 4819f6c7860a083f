#!/usr/bin/env node
// Thin launcher: registers tsx in this same process (so signals reach the CLI directly) and runs
// the TypeScript entry point without a build step.
import { register } from 'tsx/esm/api';

register();
await import('../src/cli/main.ts');
