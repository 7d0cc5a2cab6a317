#!/usr/bin/env node
// The `chessclock` command. The sources are TypeScript; tsx compiles them on load,
// so `npx chessclock` works straight after `npm ci` with no build step.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../cli/chessclock.ts');
process.exitCode = await main(process.argv.slice(2));
