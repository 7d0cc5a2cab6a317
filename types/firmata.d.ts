// firmata (firmata.js, the Firmata client Johnny-Five uses) ships no types. The narrow
// shape the emulated Uno's connection uses: a Board over a transport object (a serial
// port, or anything with write/on('data'|'open'|'close')).
declare module 'firmata' {
  import { EventEmitter } from 'node:events';
  export interface FirmataPin {
    supportedModes: number[];
    mode?: number;
    value?: number;
    analogChannel: number;
  }
  class Board extends EventEmitter {
    constructor(port: unknown, options?: Record<string, unknown>, callback?: (err?: Error) => void);
    readonly MODES: Record<string, number>;
    pins: FirmataPin[];
    isReady: boolean;
    versionReceived: boolean;
    transport: EventEmitter;
    [key: string]: any;
  }
  export default Board;
  export { Board };
}
