// mock-firmata ships no types. It is a stand-in Firmata board for Johnny-Five tests.
declare module 'mock-firmata' {
  import { EventEmitter } from 'node:events';
  export class Firmata extends EventEmitter {
    constructor(...args: unknown[]);
    [key: string]: any;
  }
  export class SerialPort extends EventEmitter {
    constructor(path?: string);
    [key: string]: any;
  }
  const mock: { Firmata: typeof Firmata; SerialPort: typeof SerialPort; [key: string]: any };
  export default mock;
}
