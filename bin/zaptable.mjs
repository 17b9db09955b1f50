#!/usr/bin/env node
// The `zaptable` command. The controller is written in TypeScript and run through tsx's loader,
// so there is no build step between a clone and a running table.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../controller/cli/main.ts');
process.exitCode = await main(process.argv.slice(2));
