import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['{cli,firmware-ts,hall,host,protocol,rules,simulator,test}/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // Real serial ports, brokers and browsers are slow to start on a 2-core machine.
    pool: 'forks',
  },
});
