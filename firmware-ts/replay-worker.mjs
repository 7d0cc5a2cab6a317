// Worker-thread entry for parallel replay: the sources are TypeScript, run through tsx.
import { register } from 'tsx/esm/api';

register();
await import('./replay-worker.ts');
