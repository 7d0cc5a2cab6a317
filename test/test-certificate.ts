// A certificate made by the test for 127.0.0.1 and localhost (package `selfsigned`): the TLS
// tests trust it as their CA, so the server's name is checked as a client in a hall would.
import { generate } from 'selfsigned';

export interface TestCertificate {
  readonly cert: string;
  readonly key: string;
}

let made: Promise<TestCertificate> | null = null;

/** One per test process (RSA key generation takes a moment on a loaded machine). */
export function testCertificate(): Promise<TestCertificate> {
  made ??= generate([{ name: 'commonName', value: 'chessclock test host' }], {
    keyType: 'ec',
    algorithm: 'sha256',
    extensions: [
      { name: 'basicConstraints', cA: true },
      { name: 'keyUsage', digitalSignature: true, keyCertSign: true },
      { name: 'extKeyUsage', serverAuth: true },
      {
        name: 'subjectAltName',
        altNames: [
          { type: 2, value: 'localhost' },
          { type: 7, ip: '127.0.0.1' },
        ],
      },
    ],
  }).then((p) => ({ cert: p.cert, key: p.private }));
  return made;
}
