#!/usr/bin/env node
// The gabarit command: runs the TypeScript CLI through tsx's loader (no build step needed).
import { register } from 'tsx/esm/api';
register();
await import('../src/cli/main.ts');
