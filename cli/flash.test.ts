// `chessclock flash`: no board is attached here, so what is tested is what can go wrong
// before avrgirl-arduino touches one: the arguments, and which HEX file is written.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { planFlash } from './flash.ts';
import { parseIntelHex, standardFirmataHexPath } from '../simulator/uno/intel-hex.ts';
import { EmulatedUno } from '../simulator/uno/emulated-uno.ts';
import { UNO_DEFAULTS } from '../firmware-ts/hardware-map.ts';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('chessclock flash: arguments and the HEX it picks', () => {
  it('defaults to avrgirl-arduino’s StandardFirmata for the Uno: the very file the emulated Uno runs', () => {
    const plan = planFlash(['--port', '/dev/ttyACM0']);
    expect(plan).toMatchObject({ port: '/dev/ttyACM0', board: 'uno', hex: standardFirmataHexPath() });
    expect(plan.hex).toMatch(/avrgirl-arduino\/junk\/hex\/uno\/StandardFirmata\.cpp\.hex$/);
    // StandardFirmata 2.4 for the ATmega328P: ~11 KB of program, well under the 32 KB flash.
    expect(plan.programBytes).toBeGreaterThan(8_000);
    expect(plan.programBytes).toBeLessThan(0x8000 - 512);
    // The emulated Uno, given nothing, loads the same image (its default hex is this path).
    const image = parseIntelHex(readFileSync(plan.hex, 'utf8'));
    expect(() => new EmulatedUno({ map: UNO_DEFAULTS, hex: readFileSync(plan.hex, 'utf8') })).not.toThrow();
    expect(image.length).toBe(0x8000);
  });

  it('takes another HEX file with --hex, checked before anything is written', () => {
    const dir = mkdtempSync(join(tmpdir(), 'flash-'));
    dirs.push(dir);
    const good = join(dir, 'blink.hex');
    writeFileSync(good, ':0400100001020304E2\n:00000001FF\n');
    expect(planFlash(['--hex', good, '--port', '/dev/ttyUSB3'])).toEqual({ port: '/dev/ttyUSB3', board: 'uno', hex: good, programBytes: 0x14 });
    const bad = join(dir, 'cut.hex');
    writeFileSync(bad, ':0400100001020304E2\n');
    expect(() => planFlash(['--port', '/dev/ttyACM0', '--hex', bad])).toThrow(`--hex ${bad}: line 1: no end-of-file record (truncated file?)`);
  });

  it.each([
    [[], '--port PATH is required'],
    [['--port'], '--port needs a value'],
    [['--port', '--hex', 'x.hex'], '--port needs a value'],
    [['--port', '/dev/ttyACM0', '--board', 'mega'], '--board must be "uno"'],
    [['--port', '/dev/ttyACM0', '--hex', '/nonexistent/firmata.hex'], '--hex /nonexistent/firmata.hex: no such file'],
    [['--port', '/dev/ttyACM0', '--baud', '9600'], 'unknown option "--baud"'],
  ])('refuses %j naming the argument', (args, message) => {
    expect(() => planFlash(args)).toThrow(message);
  });
});
