// MQTT bytes written by hand for the broker's limit tests: what a client (or an attacker) sends.

/** The bytes of a fixed header of packet `type` (its first byte) claiming `remaining` bytes after it (MQTT 3.1.1 §2.2.3). */
export function fixedHeader(type: number, remaining: number): Buffer {
  const bytes = [type];
  let n = remaining;
  do {
    let b = n % 128;
    n = Math.floor(n / 128);
    if (n > 0) b |= 0x80;
    bytes.push(b);
  } while (n > 0);
  return Buffer.from(bytes);
}
