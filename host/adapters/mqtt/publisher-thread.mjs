// Worker-thread entry for the MQTT publisher thread (publisher-thread.ts): the sources are
// TypeScript, run through tsx.
import { register } from 'tsx/esm/api';

register();
await import('./publisher-thread-worker.ts');
